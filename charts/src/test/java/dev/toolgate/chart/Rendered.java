package dev.toolgate.chart;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The chart rendered by an embedded Helm ({@code helm template}), parsed into fabric8 models. */
final class Rendered {

  static final Path CHART = Path.of("toolgate");
  static final String NAMESPACE = "toolgate-system";
  static final String RELEASE = "toolgate";
  static final String KUBE_VERSION = "v1.31.0";
  static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  final String text;
  final List<HasMetadata> objects;

  private Rendered(String text) {
    this.text = text;
    this.objects = parse(text);
  }

  /** {@code helm template toolgate charts/toolgate -n toolgate-system --set k=v ...}. */
  static Rendered with(Map<String, Object> values) {
    return on(KUBE_VERSION, values);
  }

  /** The same for a cluster of another Kubernetes version. */
  static Rendered on(String kubeVersion, Map<String, Object> values) {
    TemplateCommand template =
        new Helm(CHART)
            .template()
            .withName(RELEASE)
            .withNamespace(NAMESPACE)
            .withKubeVersion(kubeVersion);
    values.forEach(template::set);
    return new Rendered(template.call());
  }

  static Rendered defaults() {
    return with(Map.of());
  }

  private static List<HasMetadata> parse(String text) {
    List<HasMetadata> objects = new ArrayList<>();
    for (String document : text.split("(?m)^---\\s*$")) {
      String body = document.replaceAll("(?m)^#.*$", "").strip();
      if (!body.isEmpty()) {
        objects.add(SERIALIZATION.unmarshal(body, HasMetadata.class));
      }
    }
    return objects;
  }

  <T extends HasMetadata> List<T> all(Class<T> type) {
    return objects.stream().filter(type::isInstance).map(type::cast).toList();
  }

  <T extends HasMetadata> T one(Class<T> type) {
    List<T> found = all(type);
    if (found.size() != 1) {
      throw new AssertionError(
          "expected one " + type.getSimpleName() + ", rendered " + found.size());
    }
    return found.get(0);
  }

  <T extends HasMetadata> T named(Class<T> type, String name) {
    return find(type, name)
        .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name));
  }

  <T extends HasMetadata> Optional<T> find(Class<T> type, String name) {
    return all(type).stream().filter(o -> o.getMetadata().getName().equals(name)).findFirst();
  }

  /** Custom resources whose model fabric8 does not ship (PodMonitor, Certificate, Issuer). */
  List<HasMetadata> kind(String kind) {
    return objects.stream().filter(o -> o.getKind().equals(kind)).toList();
  }
}
