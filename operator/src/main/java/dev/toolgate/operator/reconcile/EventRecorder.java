package dev.toolgate.operator.reconcile;

import dev.toolgate.operator.crd.ToolPolicy;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Events on a ToolPolicy, as {@code kubectl describe} shows them: Normal or Warning, a CamelCase
 * reason, a message, and, as the API server's own recorder does, one Event per distinct (type,
 * reason, message) whose count and last time grow when it happens again, rather than a new Event
 * each time. An Event is a report: failing to write one never fails the reconciliation.
 */
final class EventRecorder {

  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
  static final String COMPONENT = "toolgate-operator";

  private final KubernetesClient client;
  private final Clock clock;

  EventRecorder(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  void normal(ToolPolicy policy, String reason, String message) {
    record(policy, "Normal", reason, message);
  }

  void warning(ToolPolicy policy, String reason, String message) {
    record(policy, "Warning", reason, message);
  }

  private void record(ToolPolicy policy, String type, String reason, String message) {
    String namespace = policy.getMetadata().getNamespace();
    String name = policy.getMetadata().getName() + "." + digest(type, reason, message);
    String now = clock.instant().toString();
    var events = client.v1().events().inNamespace(namespace);
    try {
      Event existing = events.withName(name).get();
      if (existing != null) {
        existing.setCount(existing.getCount() == null ? 2 : existing.getCount() + 1);
        existing.setLastTimestamp(now);
        events.resource(existing).update();
        return;
      }
      events
          .resource(
              new EventBuilder()
                  .withNewMetadata()
                  .withName(name)
                  .withNamespace(namespace)
                  .endMetadata()
                  .withType(type)
                  .withReason(reason)
                  .withMessage(message)
                  .withCount(1)
                  .withFirstTimestamp(now)
                  .withLastTimestamp(now)
                  .withNewSource()
                  .withComponent(COMPONENT)
                  .endSource()
                  .withReportingComponent(COMPONENT)
                  .withNewInvolvedObject()
                  .withApiVersion(policy.getApiVersion())
                  .withKind(policy.getKind())
                  .withName(policy.getMetadata().getName())
                  .withNamespace(namespace)
                  .withUid(policy.getMetadata().getUid())
                  .endInvolvedObject()
                  .build())
          .create();
    } catch (KubernetesClientException e) {
      LOG.warn("could not record the event {} {} on {}: {}", type, reason, name, e.getMessage());
    }
  }

  /** The same (type, reason, message) is the same Event. */
  private static String digest(String type, String reason, String message) {
    return ShortDigest.of(type + "\n" + reason + "\n" + message);
  }
}
