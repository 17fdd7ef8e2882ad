package dev.toolgate.sidecar.state.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.quota.QuotaRules;
import dev.toolgate.policy.quota.QuotaVerdict;
import dev.toolgate.policy.quota.Usage;
import dev.toolgate.sidecar.state.QuotaStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * Quota counters in Hazelcast maps, checked and counted by compare-and-set: strict for writes and
 * reads alike (no token leases yet), so no replica can overshoot. The agent's total is counted
 * first and given back if the session refuses.
 */
public final class HazelcastQuotaStore implements QuotaStore {

  public static final String SESSIONS = "toolgate.quota.sessions";
  public static final String AGENTS = "toolgate.quota.agents";

  private final Vertx vertx;
  private final IMap<String, String> sessions;
  private final IMap<String, String> agents;

  public HazelcastQuotaStore(Vertx vertx, HazelcastInstance hazelcast) {
    this.vertx = vertx;
    this.sessions = hazelcast.getMap(SESSIONS);
    this.agents = hazelcast.getMap(AGENTS);
  }

  @Override
  public Future<QuotaVerdict> consume(String session, String agent, boolean write, Quotas quotas, long nowMs) {
    return vertx.executeBlocking(() -> {
      if (quotas.perAgent() != null) {
        QuotaVerdict agentVerdict = CasMap.update(agents, agent, current -> {
          QuotaRules.Outcome o = QuotaRules.agent(UsageJson.usage(current), write, quotas, nowMs);
          return new CasMap.Step<>(o.verdict().allowed() ? UsageJson.usage(o.next()) : null, o.verdict());
        });
        if (!agentVerdict.allowed()) {
          return agentVerdict;
        }
      }
      QuotaVerdict verdict = CasMap.update(sessions, session, current -> {
        QuotaRules.Outcome o = QuotaRules.session(UsageJson.usage(current), write, quotas, nowMs);
        return new CasMap.Step<>(UsageJson.usage(o.next()), o.verdict());
      });
      if (!verdict.allowed() && quotas.perAgent() != null) {
        CasMap.update(agents, agent, current -> {
          Usage u = UsageJson.usage(current);
          Usage back = write
              ? new Usage(u.reads(), u.writes() - 1, u.extraReads(), u.extraWrites(), u.lastSeenMs(), u.rate())
              : new Usage(u.reads() - 1, u.writes(), u.extraReads(), u.extraWrites(), u.lastSeenMs(), u.rate());
          return new CasMap.Step<>(UsageJson.usage(back), null);
        });
      }
      return verdict;
    }, false);
  }

  @Override
  public Future<Usage> raise(String session, int reads, int writes, long nowMs) {
    return vertx.executeBlocking(() -> CasMap.update(sessions, session, current -> {
      Usage base = UsageJson.usage(current);
      Usage raised = (base == null ? Usage.fresh(nowMs) : base).raised(reads, writes);
      return new CasMap.Step<>(UsageJson.usage(raised), raised);
    }), false);
  }

  @Override
  public Future<Void> reset(String session) {
    return vertx.executeBlocking(() -> {
      sessions.delete(session);
      return null;
    }, false);
  }
}
