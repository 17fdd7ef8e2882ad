package dev.toolgate.policy.config;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * How a sidecar reaches the authenticated state service in {@code api} mode. The token is the
 * sidecar's projected ServiceAccount token (its own audience, rotated by the kubelet), mounted into
 * the sidecar container alone; the service derives the namespace and workload from it.
 */
public record StateApiOptions(
    @JsonPropertyDescription(
            "The state service's base URL, https, e.g. `https://toolgate-state.toolgate:8443`.")
        String url,
    @JsonPropertyDescription(
            "The CA bundle file (PEM) the service's certificate is checked against; or `ca`.")
        String caFile,
    @JsonPropertyDescription(
            "The CA bundle itself (PEM), inside the configuration the operator signs, so that "
                + "whoever can edit a ConfigMap cannot swap it and read the sidecar's token.")
        String ca,
    @JsonPropertyDescription(
            "The file holding this sidecar's bearer token; re-read when it changes, so a rotated"
                + " token is picked up without a restart.")
        String tokenFile,
    @JsonPropertyDescription("How long one call to the service may take, in ms.")
        Integer timeoutMs) {

  public static final int DEFAULT_TIMEOUT_MS = 2_000;

  public static final StateApiOptions DEFAULT = new StateApiOptions(null, null, null, null, null);

  public StateApiOptions {
    timeoutMs = timeoutMs == null ? DEFAULT_TIMEOUT_MS : timeoutMs;
  }
}
