package dev.toolgate.sidecar.state.hazelcast;

import com.hazelcast.map.IMap;
import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.quota.QuotaRules;
import dev.toolgate.policy.quota.QuotaVerdict;
import dev.toolgate.policy.quota.Usage;
import dev.toolgate.sidecar.state.hazelcast.HazelcastQuotaStore.Pending;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

/**
 * The workloads' totals in the shared map, as {@link HazelcastQuotaStore} counts them: each call
 * checked and counted by compare-and-set in its session's batch, and reads handed out of this
 * replica's blocks ({@link WorkloadReads}) that those round trips, or one in the background,
 * refill. The blocking methods run on the session's drain.
 */
final class WorkloadTotals {

  /**
   * A refill of {@code agent}'s block of reads claimed by a read at {@code nowMs}: {@code wanted}.
   */
  record Refill(String agent, Quotas quotas, long nowMs, int wanted) {}

  private final IMap<String, String> agents;

  /** What this replica last stored per workload: one round trip when still current. */
  private final Map<String, String> lastAgents = new ConcurrentHashMap<>();

  private final WorkloadReads blocks = new WorkloadReads();

  WorkloadTotals(IMap<String, String> agents) {
    this.agents = agents;
  }

  /** Takes one read of {@code agent}'s block, if it holds one: no round trip. */
  boolean take(String agent, Quotas quotas, long nowMs) {
    return blocks.take(agent, quotas, nowMs);
  }

  /**
   * Takes one read of {@code agent}'s block and claims its refill when due: {@link
   * WorkloadReads#NONE} when the block had none, else the reads to refill (0: none due).
   */
  int takeClaiming(String agent, Quotas quotas, long nowMs) {
    return blocks.takeClaiming(agent, quotas, nowMs);
  }

  /** Puts back a read taken for a call that then went another way. */
  void putBack(String agent) {
    blocks.putBack(agent);
  }

  /**
   * Counts the calls of {@code batch} marked in {@code counts} in their workload's total, in order,
   * setting a refusal's verdict and what was counted; a read counted also refills the workload's
   * block of reads, when it may. Blocking.
   */
  void count(
      List<Pending> batch,
      boolean[] counts,
      int opening,
      QuotaVerdict[] verdicts,
      boolean[] counted) {
    for (String agent :
        IntStream.range(0, batch.size())
            .filter(i -> counts[i])
            .mapToObj(i -> batch.get(i).agent())
            .distinct()
            .toList()) {
      count(agent, batch, counts, opening, verdicts, counted);
    }
  }

  private void count(
      String agent,
      List<Pending> batch,
      boolean[] workload,
      int opening,
      QuotaVerdict[] verdicts,
      boolean[] agentCounted) {
    int n = batch.size();
    // A leasable read counted here also refills the workload's block of reads, when it may.
    boolean reads =
        IntStream.range(0, n)
            .anyMatch(
                i -> workload[i] && batch.get(i).agent().equals(agent) && !batch.get(i).write());
    int wanted = reads ? blocks.claimRefill(agent, batch.get(n - 1).quotas()) : 0;
    int[] block = new int[1]; // reads reserved for the block
    long[] at = {Long.MIN_VALUE}; // when they were counted
    try {
      CasMap.update(
          agents,
          lastAgents,
          agent,
          current -> {
            Usage usage = UsageJson.usage(current);
            boolean changed = false;
            Pending leasedRead = null;
            for (int i = 0; i < n; i++) {
              Pending p = batch.get(i);
              if (workload[i] && p.agent().equals(agent)) {
                QuotaRules.Outcome o =
                    QuotaRules.agent(usage, p.write(), i == opening, p.quotas(), p.nowMs());
                verdicts[i] = o.verdict().allowed() ? null : o.verdict();
                agentCounted[i] = o.verdict().allowed();
                if (o.verdict().allowed()) {
                  usage = o.next();
                  changed = true;
                  leasedRead = p.write() ? leasedRead : p;
                }
              }
            }
            block[0] = 0;
            if (leasedRead != null && wanted > 0) {
              QuotaRules.Reservation reserved =
                  QuotaRules.reserveWorkloadReads(
                      usage, wanted, leasedRead.quotas(), leasedRead.nowMs());
              block[0] = reserved.granted();
              at[0] = leasedRead.nowMs();
              usage = reserved.next();
            }
            return new CasMap.Step<>(changed ? UsageJson.usage(usage) : null, null);
          });
    } finally {
      if (wanted > 0) {
        blocks.refilled(agent, block[0], at[0]);
      }
    }
    takeFromBlock(agent, batch, workload, verdicts, agentCounted);
  }

  /**
   * Reads the workload's total refused while this replica's block holds reads counted in it (a
   * refill that landed first, in this drain or another): served from the block, not refused early.
   */
  private void takeFromBlock(
      String agent,
      List<Pending> batch,
      boolean[] workload,
      QuotaVerdict[] verdicts,
      boolean[] agentCounted) {
    for (int i = 0; i < batch.size(); i++) {
      Pending p = batch.get(i);
      if (workload[i]
          && !p.write()
          && p.agent().equals(agent)
          && verdicts[i] != null
          && WORKLOAD_READ_LIMIT.equals(verdicts[i].limitName())
          && blocks.take(agent, p.quotas(), p.nowMs())) {
        verdicts[i] = null;
        agentCounted[i] = true;
      }
    }
  }

  private static final String WORKLOAD_READ_LIMIT = "quotas.perAgent.read";

  /**
   * Reserves the reads a workload's block lacks in its shared total, and ends the claimed refill.
   * Blocking; a failed round trip leaves the block as it was.
   */
  void refill(Refill refill) {
    int[] granted = {0};
    try {
      CasMap.update(
          agents,
          lastAgents,
          refill.agent(),
          current -> {
            QuotaRules.Reservation reserved =
                QuotaRules.reserveWorkloadReads(
                    UsageJson.usage(current), refill.wanted(), refill.quotas(), refill.nowMs());
            granted[0] = reserved.granted();
            return new CasMap.Step<>(
                reserved.granted() == 0 ? null : UsageJson.usage(reserved.next()), null);
          });
    } finally {
      blocks.refilled(refill.agent(), granted[0], refill.nowMs());
    }
  }

  /** Returns to the agents' totals the calls they counted but their session refused. */
  void giveBack(List<Pending> batch, QuotaVerdict[] verdicts, boolean[] agentCounted) {
    Map<String, int[]> back = new HashMap<>();
    for (int i = 0; i < batch.size(); i++) {
      if (agentCounted[i] && !verdicts[i].allowed()) {
        back.computeIfAbsent(batch.get(i).agent(), a -> new int[2])[batch.get(i).write() ? 1 : 0]++;
      }
    }
    back.forEach(
        (agent, counts) ->
            CasMap.update(
                agents,
                lastAgents,
                agent,
                current -> {
                  Usage u = UsageJson.usage(current);
                  Usage returned =
                      new Usage(
                          u.reads() - counts[0],
                          u.writes() - counts[1],
                          u.extraReads(),
                          u.extraWrites(),
                          u.lastSeenMs(),
                          u.rate());
                  return new CasMap.Step<>(UsageJson.usage(returned), null);
                }));
  }

  /**
   * Gives back what every block holds, so that a replica's shutdown takes no reads with it.
   * Blocking.
   */
  void closeAll() {
    blocks.closeAll(
        (agent, reads) ->
            CasMap.update(
                agents,
                lastAgents,
                agent,
                current -> {
                  Usage returned = QuotaRules.returnWorkloadReads(UsageJson.usage(current), reads);
                  return new CasMap.Step<>(
                      returned == null ? null : UsageJson.usage(returned), null);
                }));
  }

  /** Forgets blocks out of their window. */
  void expire(long nowMs, long idleMs) {
    blocks.expire(nowMs, idleMs);
  }
}
