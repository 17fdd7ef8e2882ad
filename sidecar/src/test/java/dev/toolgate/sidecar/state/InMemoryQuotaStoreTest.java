package dev.toolgate.sidecar.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.model.SessionQuota;
import dev.toolgate.policy.quota.QuotaVerdict;
import org.junit.jupiter.api.Test;

/** A sidecar's quotas on local state: the agent's total and each session's, counted together. */
class InMemoryQuotaStoreTest {

  private static final long NOW = 1_700_000_000_000L;

  private final QuotaStore store = QuotaStore.inMemory();

  private QuotaVerdict read(String session, Quotas quotas) {
    return store.consume(session, "agent-1", false, quotas, NOW).result();
  }

  @Test
  void refusesTheReadThatWouldTakeTheAgentPastItsQuotaAcrossSessions() {
    Quotas quotas = new Quotas(new SessionQuota(10, 10), new SessionQuota(2, 2), 1_000, null, null);

    assertThat(read("s1", quotas).allowed()).isTrue();
    assertThat(read("s2", quotas).allowed()).isTrue();
    QuotaVerdict third = read("s3", quotas);

    assertThat(third.allowed()).isFalse();
    assertThat(third.limitName()).isEqualTo("quotas.perAgent.read");
  }

  @Test
  void countsNeitherTheAgentNorTheSessionForACallTheAgentsQuotaRefuses() {
    Quotas agentCapped =
        new Quotas(new SessionQuota(2, 2), new SessionQuota(1, 1), 1_000, null, null);
    assertThat(read("s1", agentCapped).allowed()).isTrue();
    assertThat(read("s1", agentCapped).allowed()).isFalse();

    // Without the agent's cap, the session has used one read of two: the refused one did not count.
    Quotas sessionOnly = new Quotas(new SessionQuota(2, 2), null, 1_000, null, null);
    assertThat(read("s1", sessionOnly).allowed()).isTrue();
    assertThat(read("s1", sessionOnly).limitName()).isEqualTo("quotas.perSession.read");
  }

  @Test
  void aWorkloadRotatingSessionIdsStopsAtItsNewSessionRateAndItsReadAndWriteCeilings() {
    Quotas defaults = new Quotas(new SessionQuota(5, 1), null, 1_000, null, null);
    int opened = 0;
    for (int i = 0; i < 40; i++) {
      opened += read("r" + i, defaults).allowed() ? 1 : 0;
    }
    assertThat(opened).isEqualTo(Quotas.DEFAULT_NEW_SESSIONS_PER_MINUTE);

    Quotas manySessions = new Quotas(new SessionQuota(1, 1), null, 1_000, null, null, 1_000);
    int read = 0;
    QuotaVerdict lastRead = null;
    for (int i = 0; i < 40; i++) {
      lastRead = store.consume("q" + i, "agent-c", false, manySessions, NOW).result();
      read += lastRead.allowed() ? 1 : 0;
    }
    assertThat(read).as("10 sessions' worth of reads").isEqualTo(10);
    assertThat(lastRead.limitName()).isEqualTo("quotas.perAgent.read");

    Quotas roomy = new Quotas(new SessionQuota(1, 1), null, 1_000, null, null, 1_000);
    int written = 0;
    QuotaVerdict last = null;
    for (int i = 0; i < 40; i++) {
      last = store.consume("w" + i, "agent-b", true, roomy, NOW).result();
      written += last.allowed() ? 1 : 0;
    }
    assertThat(written).as("10 sessions' worth of writes").isEqualTo(10);
    assertThat(last.limitName()).isEqualTo("quotas.perAgent.write");
  }
}
