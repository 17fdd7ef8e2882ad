package dev.toolgate.sidecar.state;

import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.quota.QuotaRules;
import dev.toolgate.policy.quota.QuotaVerdict;
import dev.toolgate.policy.quota.Usage;
import io.vertx.core.Future;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Usage in this process's memory, atomic per key through {@link ConcurrentHashMap#compute}. */
final class InMemoryQuotaStore implements QuotaStore {

  private final Map<String, Usage> sessions = new ConcurrentHashMap<>();
  private final Map<String, Usage> agents = new ConcurrentHashMap<>();

  @Override
  public synchronized Future<QuotaVerdict> consume(
      String session, String agent, boolean write, Quotas quotas, long nowMs) {
    // synchronized: the agent and the session are counted together or not at all.
    Usage current = sessions.get(session);
    QuotaRules.Outcome agentOutcome =
        QuotaRules.agent(
            agents.get(agent),
            write,
            QuotaRules.opensSession(current, quotas, nowMs),
            quotas,
            nowMs);
    if (!agentOutcome.verdict().allowed()) {
      return Future.succeededFuture(agentOutcome.verdict());
    }
    QuotaRules.Outcome sessionOutcome = QuotaRules.session(current, write, quotas, nowMs);
    sessions.put(session, sessionOutcome.next());
    if (sessionOutcome.verdict().allowed() && agentOutcome.next() != null) {
      agents.put(agent, agentOutcome.next());
    }
    return Future.succeededFuture(sessionOutcome.verdict());
  }

  @Override
  public void expire(long nowMs, long idleMs) {
    sessions.values().removeIf(u -> nowMs - u.lastSeenMs() >= idleMs);
    agents.values().removeIf(u -> nowMs - u.lastSeenMs() >= idleMs);
  }

  @Override
  public Future<Usage> raise(String session, int reads, int writes, long nowMs) {
    return Future.succeededFuture(
        sessions.compute(
            session, (s, u) -> (u == null ? Usage.fresh(nowMs) : u).raised(reads, writes)));
  }

  @Override
  public Future<Void> reset(String session) {
    sessions.remove(session);
    return Future.succeededFuture();
  }
}
