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
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

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
 * <p>Reads are also <em>leased</em> ({@link ReadLease}): a round trip that lets reads through
 * reserves a few more in the same second, which later reads take on the event loop with no round
 * trip. What is left at the end of the second is kept through a pause of up to {@link
 * ReadLease#PAUSE_MEMORY_SECONDS}: the session's first read after it is answered at once from those
 * reads, and a round trip in the background moves them to the second they are served in and refills
 * the lease there (a session called every few seconds keeps one read in hand). Older, they go back
 * with the session's next round trip or the periodic {@link #expire sweep}. A session calling
 * steadily costs about one round trip per second instead of one per call, made in the background
 * near the end of each second for the next one (the lease is rolled ahead), so its reads do not
 * wait at a new second either; a busier one's full-sized lease is topped up in the background when
 * half is left, so its reads do not wait for the refill. A leased read also takes one read of the
 * workload's block ({@link WorkloadReads}), counted in the workload's total ahead by the round trip
 * of a read that found the block empty; without one, the read waits for the round trip that counts
 * it in both.
 *
 * <p>Cost: one round trip per batch (the compare-and-set, from the value this replica last stored;
 * a get first when another replica wrote since), as many again for the agent's counter (the
 * workload's total); none for a read its session's lease and its workload's block hold (a steady
 * session's roll-ahead: two a second, the reservation and the return of the second's rest; a busy
 * session's top-ups: one per {@code MAX_EXTRA - TOP_UP_LEFT} reads; a paused session's first read:
 * one, the move of the reads kept with the refill; all off the call's path); one worker thread per
 * busy session at a time, and one for the sweep's returns.
 */
public final class HazelcastQuotaStore implements QuotaStore {

  public static final String SESSIONS = "toolgate.quota.sessions";
  public static final String AGENTS = "toolgate.quota.agents";

  private final Vertx vertx;
  private final IMap<String, String> sessions;

  /** What this replica last stored per session: one round trip when still current. */
  private final Map<String, String> lastSessions = new ConcurrentHashMap<>();

  /** What waits per session; a session is present exactly while a drain of it runs. */
  private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();

  private final Map<String, ReadLease> leases = new ConcurrentHashMap<>();

  private final WorkloadTotals workload;

  /**
   * Checks that waited for a round trip (not answered from a lease): {@code
   * toolgate_quota_waits_total}.
   */
  private final LongAdder waits = new LongAdder();

  /** A sweep's returns are under way: the next sweep does not start others beside them. */
  private final AtomicBoolean sweeping = new AtomicBoolean();

  /** Set by {@link #close}: a drain still running then gives back what it reserves. */
  private volatile boolean closed;

  record Pending(
      String agent,
      boolean write,
      Quotas quotas,
      long nowMs,
      Context context,
      Promise<QuotaVerdict> promise) {}

  /**
   * A top-up claimed on {@code lease} by a read at {@code nowMs} under {@code quotas}, or its reads
   * reserved ahead when {@code aheadReads} is above 0 (that many, for the next second: its
   * roll-ahead, or the early top-up of a lease already rolled ahead).
   */
  private record TopUp(ReadLease lease, Quotas quotas, long nowMs, int aheadReads) {}

  /**
   * The reads {@code kept} through a pause by {@code lease}, to move to the second of {@code nowMs}
   * where they are served, with the reads the lease lacks reserved there under {@code quotas}.
   */
  private record Carry(ReadLease lease, ReadLease.Carried kept, Quotas quotas, long nowMs) {}

  /**
   * A refill of {@code agent}'s block of reads claimed by a read at {@code nowMs}: {@code wanted}.
   */
  private record BlockRefill(String agent, Quotas quotas, long nowMs, int wanted) {}

  /**
   * A session's calls in arrival order, and a top-up or carry asked for since its last round trip;
   * guarded by {@code waiting}.
   */
  private static final class Waiting {
    final List<Pending> calls = new ArrayList<>();
    TopUp topUp;
    Carry carry;
    WorkloadTotals.Refill blockRefill;

    /** Everything queued, taken out: the queue is left empty. */
    Drained take() {
      Drained taken = new Drained(new ArrayList<>(calls), topUp, carry, blockRefill);
      calls.clear();
      topUp = null;
      carry = null;
      blockRefill = null;
      return taken;
    }
  }

  /**
   * What one pass of a session's drain handles: its calls, and a top-up, a carry and a refill of
   * its workload's block of reads (each may be null).
   */
  private record Drained(
      List<Pending> batch, TopUp topUp, Carry carry, WorkloadTotals.Refill blockRefill) {
    boolean empty() {
      return batch.isEmpty() && topUp == null && carry == null && blockRefill == null;
    }
  }

  public HazelcastQuotaStore(Vertx vertx, HazelcastInstance hazelcast) {
    this.vertx = vertx;
    this.sessions = hazelcast.getMap(SESSIONS);
    this.workload = new WorkloadTotals(hazelcast.getMap(AGENTS));
  }

  @Override
  public Future<QuotaVerdict> consume(
      String session, String agent, boolean write, Quotas quotas, long nowMs) {
    if (leasable(write, quotas)) {
      ReadLease lease = leases.get(session);
      long second = Math.floorDiv(nowMs, 1000);
      int blockWanted =
          lease == null ? WorkloadReads.NONE : workload.takeClaiming(agent, quotas, nowMs);
      if (blockWanted != WorkloadReads.NONE) {
        if (blockWanted > 0) {
          WorkloadTotals.Refill refill =
              new WorkloadTotals.Refill(agent, quotas, nowMs, blockWanted);
          enqueue(session, w -> w.blockRefill = refill);
        }
        if (lease.take(second)) {
          int ahead = lease.claimRefill(nowMs);
          if (ahead != ReadLease.NO_REFILL) {
            TopUp topUp = new TopUp(lease, quotas, nowMs, ahead);
            enqueue(session, w -> w.topUp = topUp);
          }
          return Future.succeededFuture(QuotaVerdict.ALLOWED);
        }
        ReadLease.Carried kept = lease.carry(second);
        if (kept != null) {
          Carry carry = new Carry(lease, kept, quotas, nowMs);
          enqueue(session, w -> w.carry = carry);
          return Future.succeededFuture(QuotaVerdict.ALLOWED);
        }
        workload.putBack(agent);
      }
    }
    waits.increment();
    Promise<QuotaVerdict> promise = Promise.promise();
    Pending pending = new Pending(agent, write, quotas, nowMs, vertx.getOrCreateContext(), promise);
    enqueue(session, w -> w.calls.add(pending));
    return promise.future();
  }

  /** Adds to what waits for the session's next round trip, and starts a drain unless one runs. */
  private void enqueue(String session, Consumer<Waiting> add) {
    boolean[] start = {false};
    waiting.compute(
        session,
        (key, queue) -> {
          Waiting w = queue;
          if (w == null) {
            w = new Waiting();
            start[0] = true;
          }
          add.accept(w);
          return w;
        });
    if (start[0]) {
      vertx.executeBlocking(
          () -> {
            drain(session);
            return null;
          },
          false);
    }
  }

  /** Quota checks so far that waited for a round trip to the shared state. */
  public long waits() {
    return waits.sum();
  }

  /**
   * Whether a round trip for {@code session} is under way or waiting: tests wait for the background
   * ones.
   */
  boolean draining(String session) {
    return waiting.containsKey(session);
  }

  /** The session's usage as this replica last stored it, else as the shared map holds it. */
  private Usage sessionUsage(String session) {
    String last = lastSessions.get(session);
    return UsageJson.usage(last != null ? last : sessions.get(session));
  }

  /** Reads are leased (a write is counted where it happens, one at a time). */
  private static boolean leasable(boolean write, Quotas quotas) {
    return !write;
  }

  private void drain(String session) {
    while (true) {
      Drained[] taken = new Drained[1];
      waiting.compute(
          session,
          (key, queue) -> {
            taken[0] = queue.take();
            return taken[0].empty() ? null : queue;
          });
      Drained next = taken[0];
      if (next.empty()) {
        return;
      }
      List<Pending> batch = next.batch();
      TopUp topUp = next.topUp();
      try {
        if (next.blockRefill() != null) {
          workload.refill(next.blockRefill());
        }
        if (next.carry() != null) {
          move(session, next.carry());
        }
        if (batch.isEmpty() && topUp == null) {
          continue;
        }
        boolean roll = topUp != null && topUp.aheadReads() > 0;
        if (roll) {
          rollAhead(session, topUp);
          if (batch.isEmpty()) {
            continue;
          }
        }
        QuotaVerdict[] verdicts = apply(session, batch, roll ? null : topUp);
        for (int i = 0; i < batch.size(); i++) {
          Pending p = batch.get(i);
          QuotaVerdict verdict = verdicts[i];
          p.context().runOnContext(v -> p.promise().complete(verdict));
        }
      } catch (RuntimeException e) {
        batch.forEach(p -> p.context().runOnContext(v -> p.promise().fail(e)));
      } finally {
        if (topUp != null) {
          topUp.lease().topUpEnded();
        }
      }
    }
  }

  /**
   * The verdicts of a batch of one session's calls, in arrival order; the round trip also returns
   * the rest of the session's lease from an earlier second, and tops the lease up when {@code
   * topUp} asks. Blocking.
   */
  private QuotaVerdict[] apply(String session, List<Pending> batch, TopUp topUp) {
    int n = batch.size();
    QuotaVerdict[] verdicts = new QuotaVerdict[n];
    long nowMs =
        Math.max(
            topUp == null ? Long.MIN_VALUE : topUp.nowMs(),
            batch.stream().mapToLong(Pending::nowMs).max().orElse(Long.MIN_VALUE));
    // The quotas a lease is refilled under: the latest leasable call's, else the top-up's (null: no
    // read to lease).
    Quotas leaseQuotas =
        batch.stream()
            .filter(p -> leasable(p.write(), p.quotas()))
            .map(Pending::quotas)
            .reduce((earlier, later) -> later)
            .orElse(topUp == null ? null : topUp.quotas());
    long second = Math.floorDiv(nowMs, 1000);
    ReadLease lease =
        leaseQuotas == null
            ? leases.get(session)
            : leases.computeIfAbsent(session, s -> new ReadLease());
    boolean toCount = false;
    for (int i = 0; i < n; i++) {
      Pending p = batch.get(i);
      if (lease != null
          && leasable(p.write(), p.quotas())
          && workload.take(p.agent(), p.quotas(), p.nowMs())) {
        if (lease.take(Math.floorDiv(p.nowMs(), 1000))) {
          verdicts[i] = QuotaVerdict.ALLOWED;
          continue;
        }
        workload.putBack(p.agent());
      }
      toCount = true;
    }
    ReadLease.Unused back = lease == null ? ReadLease.Unused.NONE : lease.close(second);
    if (!toCount && topUp == null && back.reads() == 0) {
      return verdicts;
    }
    boolean refill = leaseQuotas != null && (toCount || topUp != null);
    // A lease rolled ahead that runs dry before its second starts is refilled ahead, as in its
    // second.
    boolean ahead = refill && lease.rolledAheadOf(second);
    long leaseSecond = ahead ? second + 1 : second;
    int wanted = refill ? lease.wanted(leaseSecond) : 0;
    int toReserve = refill ? lease.toReserve(leaseSecond) : 0;
    boolean[] agentCounted = new boolean[n];
    // The first call still to count opens the session when it has none yet (or an idle one):
    // what this replica last stored tells, else one read of the shared entry.
    int opener = -1;
    for (int i = 0; i < n && opener < 0; i++) {
      if (verdicts[i] == null) {
        opener = i;
      }
    }
    boolean opens =
        opener >= 0
            && QuotaRules.opensSession(
                sessionUsage(session), batch.get(opener).quotas(), batch.get(opener).nowMs());
    boolean[] counts = new boolean[n];
    for (int i = 0; i < n; i++) {
      counts[i] = verdicts[i] == null;
    }
    workload.count(batch, counts, opens ? opener : -1, verdicts, agentCounted);
    QuotaVerdict[] sessionVerdicts = new QuotaVerdict[n];
    int[] counted =
        new int[2]; // reads let through by this round trip, reads reserved for the lease
    CasMap.update(
        sessions,
        lastSessions,
        session,
        current -> {
          Usage usage =
              QuotaRules.returnReads(UsageJson.usage(current), back.reads(), back.second());
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
          if (toReserve > 0 && (counted[0] > 0 || topUp != null)) {
            QuotaRules.Reservation reserved =
                ahead
                    ? QuotaRules.reserveReadsAhead(usage, toReserve, leaseQuotas, nowMs)
                    : QuotaRules.reserveReads(usage, toReserve, leaseQuotas, nowMs);
            counted[1] = reserved.granted();
            usage = reserved.next();
          }
          return new CasMap.Step<>(usage == null ? null : UsageJson.usage(usage), null);
        });
    if (lease != null && leaseQuotas != null) {
      lease.refilled(leaseSecond, wanted, counted[0], counted[1]);
      giveBackIfClosed(session, lease);
    }
    for (int i = 0; i < n; i++) {
      if (verdicts[i] == null) {
        verdicts[i] = sessionVerdicts[i];
      }
    }
    workload.giveBack(batch, verdicts, agentCounted);
    return verdicts;
  }

  /**
   * Reserves reads of the next second for a lease ({@link ReadLease}: its roll-ahead or an early
   * top-up) and gives back what the lease no longer holds. Blocking.
   */
  private void rollAhead(String session, TopUp roll) {
    int[] granted = {0};
    CasMap.update(
        sessions,
        lastSessions,
        session,
        current -> {
          QuotaRules.Reservation reserved =
              QuotaRules.reserveReadsAhead(
                  UsageJson.usage(current), roll.aheadReads(), roll.quotas(), roll.nowMs());
          granted[0] = reserved.granted();
          return new CasMap.Step<>(
              reserved.granted() == 0 ? null : UsageJson.usage(reserved.next()), null);
        });
    returnRest(
        session,
        roll.lease().rolled(Math.floorDiv(roll.nowMs(), 1000) + 1, roll.aheadReads(), granted[0]));
    giveBackIfClosed(session, roll.lease());
  }

  /**
   * Moves the reads a lease kept through a pause to the second they are served in, and reserves
   * there what the lease lacks, in one round trip. Blocking. Should the round trip fail, the lease
   * gives its reads up: they stay counted in their old second, never served uncounted in a minute.
   */
  private void move(String session, Carry carry) {
    ReadLease.Carried kept = carry.kept();
    int[] granted = {0};
    try {
      CasMap.update(
          sessions,
          lastSessions,
          session,
          current -> {
            Usage moved =
                QuotaRules.moveReads(
                    UsageJson.usage(current), kept.reads(), kept.second(), carry.nowMs());
            granted[0] = 0;
            if (kept.reserve() > 0) {
              QuotaRules.Reservation reserved =
                  QuotaRules.reserveReads(moved, kept.reserve(), carry.quotas(), carry.nowMs());
              granted[0] = reserved.granted();
              moved = reserved.next();
            }
            return new CasMap.Step<>(moved == null ? null : UsageJson.usage(moved), null);
          });
    } catch (RuntimeException e) {
      carry.lease().close(Long.MAX_VALUE);
      granted[0] = 0;
    } finally {
      returnRest(session, carry.lease().reserved(Math.floorDiv(carry.nowMs(), 1000), granted[0]));
    }
    giveBackIfClosed(session, carry.lease());
  }

  /**
   * A refill, top-up or roll-ahead that ends after close: its reads go back now, not with the
   * replica.
   */
  private void giveBackIfClosed(String session, ReadLease lease) {
    if (closed) {
      returnRest(session, lease.close(Long.MAX_VALUE));
    }
  }

  @Override
  public Future<Usage> raise(String session, int reads, int writes, long nowMs) {
    return vertx.executeBlocking(
        () ->
            CasMap.update(
                sessions,
                lastSessions,
                session,
                current -> {
                  Usage base = UsageJson.usage(current);
                  Usage raised = (base == null ? Usage.fresh(nowMs) : base).raised(reads, writes);
                  return new CasMap.Step<>(UsageJson.usage(raised), raised);
                }),
        false);
  }

  @Override
  public Future<Void> reset(String session) {
    leases.remove(session);
    return vertx.executeBlocking(
        () -> {
          sessions.delete(session);
          lastSessions.remove(session);
          return null;
        },
        false);
  }

  /**
   * Returns the rest of leases of sessions silent for longer than a lease is kept through a pause
   * ({@link ReadLease#PAUSE_MEMORY_SECONDS}; a session still calling returns it with its next round
   * trip) and forgets idle leases. The returns run one after another on one worker, one sweep at a
   * time: thousands of sessions that went quiet together (each holding a read) would otherwise
   * queue thousands of round trips ahead of every live session's. Should one fail, the rest keep
   * their reads for the next sweep. A lease dropped while its session's drain refills it only keeps
   * its reads counted: strict, never over.
   */
  @Override
  public void expire(long nowMs, long idleMs) {
    workload.expire(nowMs, idleMs);
    long second = Math.floorDiv(nowMs, 1000);
    long oldestKept = second - ReadLease.PAUSE_MEMORY_SECONDS;
    List<Map.Entry<String, ReadLease>> paused = new ArrayList<>();
    leases.forEach(
        (session, lease) -> {
          if (lease.holdsUnusedBefore(oldestKept)) {
            paused.add(Map.entry(session, lease));
          } else if (lease.idle(second) && !waiting.containsKey(session)) {
            leases.remove(session, lease);
          }
        });
    if (paused.isEmpty() || !sweeping.compareAndSet(false, true)) {
      return;
    }
    vertx.executeBlocking(
        () -> {
          try {
            for (Map.Entry<String, ReadLease> e : paused) {
              // Checked and given up in one step: a read may have carried the lease to a later
              // second since.
              returnRest(e.getKey(), e.getValue().close(oldestKept));
            }
          } finally {
            sweeping.set(false);
          }
          return null;
        },
        false);
  }

  /**
   * Returns what every lease still holds, so that a replica's shutdown takes no reads with it.
   * Blocking on a worker.
   */
  @Override
  public Future<Void> close() {
    closed = true;
    return vertx.executeBlocking(
        () -> {
          leases.forEach((session, lease) -> returnRest(session, lease.close(Long.MAX_VALUE)));
          leases.clear();
          workload.closeAll();
          return null;
        },
        false);
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
    CasMap.update(
        sessions,
        lastSessions,
        session,
        current -> {
          Usage returned =
              QuotaRules.returnReads(UsageJson.usage(current), rest.reads(), rest.second());
          return new CasMap.Step<>(returned == null ? null : UsageJson.usage(returned), null);
        });
  }
}
