{{/* Names: every object of a release starts with its full name. */}}
{{- define "toolgate.fullname" -}}
{{- if contains "toolgate" .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-toolgate" .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "toolgate.operatorName" -}}{{ include "toolgate.fullname" . }}-operator{{- end -}}
{{- define "toolgate.webhookService" -}}{{ include "toolgate.fullname" . }}-webhook{{- end -}}
{{- define "toolgate.webhookConfiguration" -}}{{ include "toolgate.fullname" . }}-injector{{- end -}}
{{- define "toolgate.stateName" -}}{{ include "toolgate.fullname" . }}-state{{- end -}}
{{- define "toolgate.stateMembers" -}}{{ include "toolgate.stateName" . }}-members{{- end -}}
{{- define "toolgate.stateHost" -}}{{ include "toolgate.stateName" . }}.{{ .Release.Namespace }}.svc{{- end -}}
{{- define "toolgate.stateUrl" -}}https://{{ include "toolgate.stateHost" . }}:{{ .Values.state.apiPort }}{{- end -}}
{{- define "toolgate.tag" -}}{{ .Values.image.tag | default .Chart.AppVersion }}{{- end -}}

{{- define "toolgate.labels" -}}
app.kubernetes.io/name: toolgate
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "toolgate.operatorSelector" -}}
app.kubernetes.io/name: toolgate
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: operator
{{- end -}}

{{- define "toolgate.stateSelector" -}}
app.kubernetes.io/name: toolgate
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: state
{{- end -}}

{{- define "toolgate.restrictedContainer" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end -}}
