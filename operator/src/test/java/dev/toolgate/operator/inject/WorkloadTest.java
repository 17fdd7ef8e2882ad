package dev.toolgate.operator.inject;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

class WorkloadTest {

  private static PodBuilder pod() {
    return new PodBuilder().withNewMetadata().withName("p").endMetadata();
  }

  @Test
  void aDeploymentsPodIsCountedUnderTheDeploymentWhateverItsReplicaSet() {
    Pod pod =
        pod()
            .editMetadata()
            .addToLabels("pod-template-hash", "5d8f7c9b4")
            .addNewOwnerReference()
            .withKind("ReplicaSet")
            .withName("ops-assistant-5d8f7c9b4")
            .withController(true)
            .endOwnerReference()
            .endMetadata()
            .build();

    assertThat(Workload.of(pod, "agents")).isEqualTo("agents/Deployment/ops-assistant");
  }

  @Test
  void aStatefulSetsOrJobsPodIsCountedUnderItsController() {
    Pod pod =
        pod()
            .editMetadata()
            .addNewOwnerReference()
            .withKind("StatefulSet")
            .withName("researcher")
            .withController(true)
            .endOwnerReference()
            .endMetadata()
            .build();

    assertThat(Workload.of(pod, "lab")).isEqualTo("lab/StatefulSet/researcher");
  }

  @Test
  void aBarePodIsItsOwnWorkloadEvenBeforeItHasAName() {
    Pod named = pod().build();
    Pod generated =
        new PodBuilder().withNewMetadata().withGenerateName("agent-").endMetadata().build();

    assertThat(Workload.of(named, "ops")).isEqualTo("ops/Pod/p");
    assertThat(Workload.of(generated, "ops")).isEqualTo("ops/Pod/agent");
  }

  @Test
  void theSameWorkloadNameInTwoNamespacesIsTwoAgents() {
    Pod pod = pod().build();

    assertThat(Workload.of(pod, "a")).isNotEqualTo(Workload.of(pod, "b"));
  }
}
