package dev.toolgate.policy.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.budget.TimeoutLayer;
import org.junit.jupiter.api.Test;

class WordingTest {

  @Test
  void aTimeoutNamesTheLayerAndSaysAReadChangedNothing() {
    Wording.Failure read =
        Wording.failure(
            ResultClass.TIMEOUT, TimeoutLayer.CALL_BUDGET, "get_job", "api", "x", false);
    Wording.Failure write =
        Wording.failure(ResultClass.TIMEOUT, TimeoutLayer.ATTEMPT, "restart", "api", "x", true);

    assertThat(read.code()).isEqualTo(AgentCode.TIMEOUT);
    assertThat(read.sentence())
        .isEqualTo(
            "The call_budget budget expired before get_job on 'api' answered (x). Nothing was"
                + " changed by a read.");
    assertThat(write.sentence()).doesNotContain("Nothing was changed");
  }

  @Test
  void eachBackendFailureHasItsOwnCode() {
    assertThat(failureCode(ResultClass.TRANSPORT_UNAVAILABLE))
        .isEqualTo(AgentCode.UPSTREAM_UNAVAILABLE);
    assertThat(failureCode(ResultClass.UPSTREAM_CLOSED)).isEqualTo(AgentCode.UPSTREAM_CLOSED);
    assertThat(failureCode(ResultClass.BACKEND_429)).isEqualTo(AgentCode.BACKEND_429);
    assertThat(failureCode(ResultClass.BACKEND_503)).isEqualTo(AgentCode.BACKEND_503);
    assertThat(failureCode(ResultClass.BACKEND_5XX_OTHER)).isEqualTo(AgentCode.BACKEND_ERROR);
  }

  @Test
  void anAnswerTooLargeNamesTheLimitAndSaysItWasNotRetried() {
    Wording.Failure f =
        Wording.failure(
            ResultClass.UPSTREAM_ANSWER_TOO_LARGE, null, "list_jobs", "api", "over 1024", false);

    assertThat(f.code()).isEqualTo(AgentCode.UPSTREAM_ANSWER_TOO_LARGE);
    assertThat(f.sentence())
        .contains("'api' answered list_jobs")
        .contains("runtime.maxAnswerBytes")
        .contains("not retried")
        .contains("Ask for less");
    assertThat(ResultClass.UPSTREAM_ANSWER_TOO_LARGE.isBackendFailure()).isFalse();
  }

  @Test
  void anUnreachableUpstreamSaysNothingWasExecuted() {
    assertThat(
            Wording.failure(
                    ResultClass.TRANSPORT_UNAVAILABLE, null, "get_job", "api", "refused", false)
                .sentence())
        .contains("get_job was not executed (refused)");
  }

  @Test
  void aDenialTellsTheWayForward() {
    assertThat(Wording.hint(AgentCode.APPROVAL_REQUIRED)).contains("Ask a human to approve it");
    assertThat(Wording.hint(AgentCode.WRITES_BLOCKED)).contains("read-only tools still work");
    assertThat(Wording.hint(AgentCode.QUOTA_EXCEEDED)).isEmpty();
    assertThat(Wording.quotaLever("quotas.perSession.write", "s1", true))
        .contains("--session s1 --writes N");
  }

  @Test
  void eachQuotaRefusalNamesTheLeverThatLiftsItsOwnLimit() {
    assertThat(Wording.quotaLever("quotas.perSession.read", "s1", false))
        .contains("quota raise --session s1 --reads N");
    assertThat(Wording.quotaLever("quotas.ratePerMinute", "s1", false))
        .contains("quotas.ratePerMinute")
        .contains("a quota raise does not")
        .doesNotContain("--reads");
    assertThat(Wording.quotaLever("quotas.perAgent.write", "s1", true))
        .contains("quotas.perAgent.write")
        .contains("every session of this workload together")
        .doesNotContain("--writes");
    assertThat(Wording.quotaLever("quotas.newSessionsPerMinute", "s1", true))
        .contains("a new session id does not bring a new quota")
        .contains("quotas.newSessionsPerMinute")
        .doesNotContain("--writes");
  }

  @Test
  void aLookupSaysWhetherToRelaunch() {
    assertThat(Wording.lookupFound("accepted", "op-1", ResultClass.SUCCESS))
        .contains("found operation op-1 accepted: do not relaunch it");
    assertThat(Wording.lookupFound("not_found", null, ResultClass.SUCCESS))
        .contains("relaunch only after checking");
    assertThat(Wording.lookupFound("unknown", null, ResultClass.TIMEOUT))
        .contains("did not tell (timeout)");
  }

  @Test
  void anOpenCircuitNamesTheIncidentAndTheNextProbe() {
    assertThat(Wording.circuitRefused("get_job", "api", "half_open", "inc-1", 3))
        .isEqualTo(
            "The circuit of get_job on 'api' is half-open (incident inc-1; next probe in about 3"
                + " s). No write action was performed.");
    assertThat(Wording.circuitRefused("get_job", "api", "open", "inc-1", 0))
        .doesNotContain("next probe");
  }

  private static AgentCode failureCode(ResultClass result) {
    return Wording.failure(result, null, "t", "api", "why", false).code();
  }
}
