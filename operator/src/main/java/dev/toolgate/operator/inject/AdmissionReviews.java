package dev.toolgate.operator.inject;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponseBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The mutating webhook's protocol: an {@code AdmissionReview} in, the same review with a response
 * out — allowed always (a pod the injector skips is admitted unchanged: the webhook never blocks a
 * workload), with a JSON patch when the sidecar is injected. Pure text in, text out.
 */
public final class AdmissionReviews {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private final SidecarInjector injector;

  public AdmissionReviews(SidecarInjector injector) {
    this.injector = injector;
  }

  /**
   * A review answered, and what became of it: {@code injected}, {@code skipped} (the pod did not
   * ask, or already has the sidecar) or {@code not_a_pod}.
   */
  public record Answer(String json, String result) {}

  public String review(String body) {
    return answer(body).json();
  }

  public Answer answer(String body) {
    AdmissionReview review = SERIALIZATION.unmarshal(body, AdmissionReview.class);
    AdmissionRequest request = review.getRequest();
    if (request == null) {
      throw new IllegalArgumentException("an AdmissionReview without a request");
    }
    AdmissionResponseBuilder response =
        new AdmissionResponseBuilder().withUid(request.getUid()).withAllowed(true);
    String result = "not_a_pod";
    if ("Pod".equals(request.getKind() == null ? null : request.getKind().getKind())
        && request.getObject() != null) {
      Pod pod = SERIALIZATION.convertValue(request.getObject(), Pod.class);
      String given =
          request.getNamespace() != null
              ? request.getNamespace()
              : pod.getMetadata() == null ? null : pod.getMetadata().getNamespace();
      String namespace = given == null ? "" : given;
      SidecarInjector.Decision decision = injector.decide(pod, namespace);
      result = decision.inject() ? "injected" : "skipped";
      if (decision.inject()) {
        response
            .withPatchType("JSONPatch")
            .withPatch(
                Base64.getEncoder()
                    .encodeToString(
                        injector.patch(pod, namespace).getBytes(StandardCharsets.UTF_8)));
      }
      if (!decision.warnings().isEmpty()) {
        response.withWarnings(decision.warnings());
      }
      response.withStatus(
          new io.fabric8.kubernetes.api.model.StatusBuilder()
              .withMessage(String.join("; ", decision.reasons()))
              .build());
    }
    AdmissionResponse built = response.build();
    return new Answer(
        SERIALIZATION.asJson(
            new AdmissionReviewBuilder()
                .withApiVersion("admission.k8s.io/v1")
                .withKind("AdmissionReview")
                .withResponse(built)
                .build()),
        result);
  }
}
