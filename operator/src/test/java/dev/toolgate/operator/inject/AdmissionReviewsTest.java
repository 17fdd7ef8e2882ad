package dev.toolgate.operator.inject;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.zjsonpatch.JsonPatch;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class AdmissionReviewsTest {

  static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private final AdmissionReviews reviews =
      new AdmissionReviews(new SidecarInjector(SidecarInjectorTest.OPTIONS));

  private static String review(Pod pod, String namespace) {
    return """
        {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u-1",
         "kind":{"group":"","version":"v1","kind":"Pod"},"namespace":"%s","operation":"CREATE","object":%s}}
        """
        .formatted(namespace, SERIALIZATION.asJson(pod));
  }

  @Test
  void answersAnAnnotatedPodWithAPatchThatInjectsTheSidecarAndASecondReviewChangesNothing()
      throws Exception {
    Pod pod = SERIALIZATION.unmarshal(Files.readString(SidecarInjectorTest.POD), Pod.class);

    AdmissionReview answer =
        SERIALIZATION.unmarshal(reviews.review(review(pod, "ops")), AdmissionReview.class);

    assertThat(answer.getResponse().getUid()).isEqualTo("u-1");
    assertThat(answer.getResponse().getAllowed()).isTrue();
    assertThat(answer.getResponse().getPatchType()).isEqualTo("JSONPatch");
    String patch =
        new String(
            Base64.getDecoder().decode(answer.getResponse().getPatch()), StandardCharsets.UTF_8);
    Pod injected =
        SERIALIZATION.convertValue(
            JsonPatch.apply(
                SERIALIZATION.unmarshal(patch, JsonNode.class),
                SERIALIZATION.convertValue(pod, JsonNode.class)),
            Pod.class);
    assertThat(injected.getSpec().getInitContainers())
        .extracting(c -> c.getName())
        .containsExactly("toolgate-sidecar");

    AdmissionReview again =
        SERIALIZATION.unmarshal(reviews.review(review(injected, "ops")), AdmissionReview.class);
    assertThat(again.getResponse().getPatch()).isNull();
    assertThat(again.getResponse().getStatus().getMessage()).isEqualTo("already injected");
  }

  @Test
  void anOverrideTheInjectorCannotUseComesBackAsAWarningKubectlPrints() throws Exception {
    Pod pod = SERIALIZATION.unmarshal(Files.readString(SidecarInjectorTest.POD), Pod.class);
    pod.getMetadata().getAnnotations().put(InjectionOptions.ANNOTATION_CPU_REQUEST, "lots");

    AdmissionReviews.Answer answer = reviews.answer(review(pod, "ops"));
    AdmissionReview parsed = SERIALIZATION.unmarshal(answer.json(), AdmissionReview.class);

    assertThat(answer.result()).isEqualTo("injected");
    assertThat(parsed.getResponse().getWarnings())
        .singleElement()
        .asString()
        .contains(InjectionOptions.ANNOTATION_CPU_REQUEST, "'lots'", "50m");
  }

  @Test
  void admitsAPodItSkipsUnchanged() throws Exception {
    Pod pod = SERIALIZATION.unmarshal(Files.readString(SidecarInjectorTest.POD), Pod.class);

    AdmissionReview answer =
        SERIALIZATION.unmarshal(reviews.review(review(pod, "toolgate")), AdmissionReview.class);

    assertThat(answer.getResponse().getAllowed()).isTrue();
    assertThat(answer.getResponse().getPatch()).isNull();
  }

  @Test
  void refusesSomethingThatIsNotAReview() {
    assertThatThrownBy(() -> reviews.review("{\"kind\":\"AdmissionReview\"}"))
        .hasMessageContaining("without a request");
  }
}
