package dev.toolgate.sidecar.state.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.quota.QuotaRules;
import dev.toolgate.policy.quota.QuotaVerdict;
import dev.toolgate.policy.quota.Usage;
import dev.toolgate.sidecar.state.QuotaStore;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Quota counters in Hazelcast maps, checked and counted by compare-and-set: strict for writes and
 * reads alike, so no replica can overshoot. The agent's total is counted first and given back if
 * the session refuses.
 *
 * <p>Calls of one session are combined: while a read-modify-write of a session's counters is in
 * flight, the calls that arrive queue behind it, and the next round trip applies all of them in
 * arrival order (each judged against the usage the previous one left). A replica therefore never
 * races itself on a key, and a busy session costs one compare-and-set per batch instead of one per
 * call, retried under contention.
 *
 * <p>Reads of a session without a per-agent quota are also <em>leased</em> ({@link ReadLease}): a
 * round trip that lets reads through reserves a few more in the same second, which later reads
 * take on the event loop with no round trip; what is left at the end of the second goes back with
 * the session's next round trip or the periodic {@link #expire sweep}. A session calling steadily
 * costs about one round trip per second instead of one per call.
 *
 * <p>Cost: one round trip per batch (the compare-and-set, from the value this replica last stored;
 * a get first when another replica wrote since), as many again for the agent's counter when
 * per-agent quotas are set; none for a read its lease holds; one worker thread per busy session
 * at a time.
 */
public final class HazelcastQuotaStore implements QuotaStore {

  public static final String SESSIONS = "toolgate.quota.sessions";
  public static final String AGENTS = "toolgate.quota.agents";

  private final Vertx vertx;
  private final IMap<String, String> sessions;
  private final IMap<String, String> agents;
  /** What this replica last stored per session and per agent: one round trip when still current. */
  private final Map<String, String> lastSessions = new ConcurrentHashMap<>();
  private final Map<String, String> lastAgents = new ConcurrentHashMap<>();
  /** Calls waiting per session; a session is present exactly while a drain of it runs. */
  private final Map<String, List<Pending>> waiting = new ConcurrentHashMap<>();
  private final Map<String, ReadLease> leases = new ConcurrentHashMap<>();

  private record Pending(String agent, boolean write, Quotas quotas, long nowMs, Context context,
      Promise<QuotaVerdict> promise) {}

  public HazelcastQuotaStore(Vertx vertx, HazelcastInstance hazelcast) {
    this.vertx = vertx;
    this.sessions = hazelcast.getMap(SESSIONS);
    this.agents = hazelcast.getMap(AGENTS);
  }

  @Override
  public Future<QuotaVerdict> consume(String session, String agent, boolean write, Quotas quotas, long nowMs) {
    if (leasable(write, quotas)) {
      ReadLease lease = leases.get(session);
      if (lease != null && lease.take(Math.floorDiv(nowMs, 1000))) {
        return Future.succeededFuture(QuotaVerdict.ALLOWED);
      }
    }
    Promise<QuotaVerdict> promise = Promise.promise();
    Pending pending = new Pending(agent, write, quotas, nowMs, vertx.getOrCreateContext(), promise);
    boolean[] start = {false};
    waiting.compute(session, (key, queue) -> {
      List<Pending> q = queue;
      if (q == null) {
        q = new ArrayList<>();
        start[0] = true;
      }
      q.add(pending);
      return q;
    });
    if (start[0]) {
      vertx.executeBlocking(() -> {
        drain(session);
        return null;
      }, false);
    }
    return promise.future();
  }

  /** Reads are leased only when no per-agent total must see each of them. */
  private static boolean leasable(boolean write, Quotas quotas) {
    return !write && quotas.perAgent() == null;
  }

  private void drain(String session) {
    while (true) {
      List<Pending> batch = new ArrayList<>();
      waiting.compute(session, (key, queue) -> {
        batch.addAll(queue);
        queue.clear();
        return batch.isEmpty() ? null : queue;
      });
      if (batch.isEmpty()) {
        return;
      }
      try {
        QuotaVerdict[] verdicts = apply(session, batch);
        for (int i = 0; i < batch.size(); i++) {
          Pending p = batch.get(i);
          QuotaVerdict verdict = verdicts[i];
          p.context().runOnContext(v -> p.promise().complete(verdict));
        }
      } catch (RuntimeException e) {
        batch.forEach(p -> p.context().runOnContext(v -> p.promise().fail(e)));
      }
    }
  }

  /**
   * The verdicts of a batch of one session's calls, in arrival order; the round trip also returns
   * the rest of the session's lease from an earlier second. Blocking.
   */
  private QuotaVerdict[] apply(String session, List<Pending> batch) {
    int n = batch.size();
    QuotaVerdict[] verdicts = new QuotaVerdict[n];
    long nowMs = batch.stream().mapToLong(Pending::nowMs).max().orElseThrow();
    // The quotas a lease is refilled under: the latest leasable call's (null: no read to lease).
    Quotas leaseQuotas = batch.stream().filter(p -> leasable(p.write(), p.quotas())).map(Pending::quotas)
        .reduce((earlier, later) -> later).orElse(null);
    long second = Math.floorDiv(nowMs, 1000);
    ReadLease lease = leaseQuotas == null ? leases.get(session) : leases.computeIfAbsent(session, s -> new ReadLease());
    boolean toCount = false;
    for (int i = 0; i < n; i++) {
      Pending p = batch.get(i);
      if (lease != null && leasable(p.write(), p.quotas()) && lease.take(Math.floorDiv(p.nowMs(), 1000))) {
        verdicts[i] = QuotaVerdict.ALLOWED;
      } else {
        toCount = true;
      }
    }
    ReadLease.Unused back = lease == null ? ReadLease.Unused.NONE : lease.close(second);
    if (!toCount && back.reads() == 0) {
      return verdicts;
    }
    int wanted = leaseQuotas != null && toCount ? lease.wanted(second) : 0;
    boolean[] agentCounted = new boolean[n];
    for (String agent : batch.stream().filter(p -> p.quotas().perAgent() != null).map(Pending::agent)
        .distinct().toList()) {
      CasMap.update(agents, lastAgents, agent, current -> {
        Usage usage = UsageJson.usage(current);
        boolean changed = false;
        for (int i = 0; i < n; i++) {
          Pending p = batch.get(i);
          if (p.quotas().perAgent() != null && p.agent().equals(agent)) {
            QuotaRules.Outcome o = QuotaRules.agent(usage, p.write(), p.quotas(), p.nowMs());
            verdicts[i] = o.verdict().allowed() ? null : o.verdict();
            agentCounted[i] = o.verdict().allowed();
            if (o.verdict().allowed()) {
              usage = o.next();
              changed = true;
            }
          }
        }
        return new CasMap.Step<>(changed ? UsageJson.usage(usage) : null, null);
      });
    }
    QuotaVerdict[] sessionVerdicts = new QuotaVerdict[n];
    int[] counted = new int[2]; // reads let through by this round trip, reads reserved for the lease
    CasMap.update(sessions, lastSessions, session, current -> {
      Usage usage = QuotaRules.returnReads(UsageJson.usage(current), back.reads(), back.second());
      counted[0] = 0;
      counted[1] = 0;
      for (int i = 0; i < n; i++) {
        sessionVerdicts[i] = null;
        if (verdicts[i] == null) {
          Pending p = batch.get(i);
          QuotaRules.Outcome o = QuotaRules.session(usage, p.write(), p.quotas(), p.nowMs());
          sessionVerdicts[i] = o.verdict();
          usage = o.next();
          counted[0] += o.verdict().allowed() && leasable(p.write(), p.quotas()) ? 1 : 0;
        }
      }
      if (wanted > 0 && counted[0] > 0) {
        QuotaRules.Reservation reserved = QuotaRules.reserveReads(usage, wanted, leaseQuotas, nowMs);
        counted[1] = reserved.granted();
        usage = reserved.next();
      }
      return new CasMap.Step<>(usage == null ? null : UsageJson.usage(usage), null);
    });
    if (lease != null && leaseQuotas != null) {
      lease.refilled(second, wanted, counted[0], counted[1]);
    }
    for (int i = 0; i < n; i++) {
      if (verdicts[i] == null) {
        verdicts[i] = sessionVerdicts[i];
      }
    }
    giveBack(batch, verdicts, agentCounted);
    return verdicts;
  }

  /** Returns to the agents' totals the calls they counted but their session refused. */
  private void giveBack(List<Pending> batch, QuotaVerdict[] verdicts, boolean[] agentCounted) {
    Map<String, int[]> back = new HashMap<>();
    for (int i = 0; i < batch.size(); i++) {
      if (agentCounted[i] && !verdicts[i].allowed()) {
        back.computeIfAbsent(batch.get(i).agent(), a -> new int[2])[batch.get(i).write() ? 1 : 0]++;
      }
    }
    back.forEach((agent, counts) -> CasMap.update(agents, lastAgents, agent, current -> {
      Usage u = UsageJson.usage(current);
      Usage returned = new Usage(u.reads() - counts[0], u.writes() - counts[1], u.extraReads(), u.extraWrites(),
          u.lastSeenMs(), u.rate());
      return new CasMap.Step<>(UsageJson.usage(returned), null);
    }));
  }

  @Override
  public Future<Usage> raise(String session, int reads, int writes, long nowMs) {
    return vertx.executeBlocking(() -> CasMap.update(sessions, lastSessions, session, current -> {
      Usage base = UsageJson.usage(current);
      Usage raised = (base == null ? Usage.fresh(nowMs) : base).raised(reads, writes);
      return new CasMap.Step<>(UsageJson.usage(raised), raised);
    }), false);
  }

  @Override
  public Future<Void> reset(String session) {
    leases.remove(session);
    return vertx.executeBlocking(() -> {
      sessions.delete(session);
      lastSessions.remove(session);
      return null;
    }, false);
  }

  /**
   * Returns the rest of leases of sessions silent for a whole second (a session still calling
   * returns it with its next round trip) and forgets idle leases. A lease dropped while its
   * session's drain refills it only keeps its reads counted: strict, never over.
   */
  @Override
  public void expire(long nowMs, long idleMs) {
    long second = Math.floorDiv(nowMs, 1000);
    leases.forEach((session, lease) -> {
      if (lease.holdsUnusedBefore(second - 1)) {
        vertx.executeBlocking(() -> {
          returnRest(session, lease.close(second));
          return null;
        }, false);
      } else if (lease.idle(second) && !waiting.containsKey(session)) {
        leases.remove(session, lease);
      }
    });
  }

  /** Returns what every lease still holds, so that a replica's shutdown takes no reads with it. Blocking on a worker. */
  @Override
  public Future<Void> close() {
    return vertx.executeBlocking(() -> {
      leases.forEach((session, lease) -> returnRest(session, lease.close(Long.MAX_VALUE)));
      leases.clear();
      return null;
    }, false);
  }

  /**
   * Returns a lease's rest to the session's entry. Blocking. It may meet a drain of the same
   * session on the key: the compare-and-set then retries; the rest itself was taken from the lease
   * once, so it is never returned twice.
   */
  private void returnRest(String session, ReadLease.Unused rest) {
    if (rest.reads() == 0) {
      return;
    }
    CasMap.update(sessions, lastSessions, session, current -> {
      Usage returned = QuotaRules.returnReads(UsageJson.usage(current), rest.reads(), rest.second());
      return new CasMap.Step<>(returned == null ? null : UsageJson.usage(returned), null);
    });
  }
}
