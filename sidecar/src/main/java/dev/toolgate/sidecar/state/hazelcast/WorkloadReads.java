package dev.toolgate.sidecar.state.hazelcast;

import dev.toolgate.policy.model.Quotas;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * One replica's blocks of workload reads: reads already counted in the workload's shared total,
 * which this replica hands to the reads of any of the workload's sessions without a round trip. A
 * block is refilled by the round trip of a read that found it empty, in the same compare-and-set
 * that counts that read ({@link #blockSize} more). Never over the limit: every read handed out was
 * counted first. The price is that another replica may be refused early, by at most one block. A
 * block half used is topped up in the background ({@link #claimRefill}), so a busy workload's reads
 * do not wait for the refill; one refill at a time per block.
 *
 * <p>A block's reads belong to the workload's usage as it stood when they were counted: once the
 * workload has been idle for the idle window the shared total starts afresh, and so does the block
 * (its reads are dropped, never handed out uncounted).
 *
 * <p>Thread-safe: event loops take from it, drains refill it; one lock per block.
 */
final class WorkloadReads {

  /** The largest block: bounds what another replica can be refused early. */
  static final int MAX_BLOCK = 1024;

  /** A block is at most this fraction of the workload's read limit, so replicas share it. */
  static final int LIMIT_SHARE = 20;

  private static final class Block {
    int reads;
    long countedMs;
    boolean refilling;
  }

  private final Map<String, Block> blocks = new ConcurrentHashMap<>();

  /** The reads to reserve with a counted read under {@code quotas}: 0 for a small limit. */
  static int blockSize(Quotas quotas) {
    return Math.min(MAX_BLOCK, quotas.workloadLimit().read() / LIMIT_SHARE);
  }

  /** Takes one read of {@code agent}'s block, if it holds one counted in the current window. */
  boolean take(String agent, Quotas quotas, long nowMs) {
    Block block = blocks.get(agent);
    if (block == null) {
      return false;
    }
    synchronized (block) {
      return takeOne(block, quotas, nowMs);
    }
  }

  /** Takes one read of {@code block}, holding its lock; drops reads out of their window. */
  private static boolean takeOne(Block block, Quotas quotas, long nowMs) {
    if (block.reads == 0) {
      return false;
    }
    if (nowMs - block.countedMs >= quotas.idleExpirySeconds() * 1000L) {
      block.reads = 0;
      return false;
    }
    block.reads--;
    return true;
  }

  /** What {@link #takeClaiming} answers when the block had no read to give. */
  static final int NONE = -1;

  /**
   * {@link #take}, and in the same step {@link #claimRefill}: {@link #NONE} when no read was taken,
   * else the reads of the refill claimed (0: none due). The read path's one lock per read.
   */
  int takeClaiming(String agent, Quotas quotas, long nowMs) {
    Block block = blocks.get(agent);
    if (block == null) {
      return NONE;
    }
    int size = blockSize(quotas);
    synchronized (block) {
      if (!takeOne(block, quotas, nowMs)) {
        return NONE;
      }
      if (size == 0 || block.refilling || block.reads > size / 2) {
        return 0;
      }
      block.refilling = true;
      return size - block.reads;
    }
  }

  /**
   * Claims the refill of {@code agent}'s block: the reads it lacks of {@link #blockSize}, when it
   * is at most half full and no other refill runs (0 otherwise). The claimer ends it with {@link
   * #refilled}.
   */
  int claimRefill(String agent, Quotas quotas) {
    int size = blockSize(quotas);
    if (size == 0) {
      return 0;
    }
    Block block = blocks.computeIfAbsent(agent, a -> new Block());
    synchronized (block) {
      if (block.refilling || block.reads > size / 2) {
        return 0;
      }
      block.refilling = true;
      return size - block.reads;
    }
  }

  /** Ends a claimed refill: {@code reads} counted in the shared total at {@code nowMs}. */
  void refilled(String agent, int reads, long nowMs) {
    Block block = blocks.computeIfAbsent(agent, a -> new Block());
    synchronized (block) {
      block.refilling = false;
      if (reads > 0) {
        block.reads += reads;
        block.countedMs = Math.max(block.countedMs, nowMs);
      }
    }
  }

  /** Puts back a read taken for a call that then went another way. */
  void putBack(String agent) {
    Block block = blocks.computeIfAbsent(agent, a -> new Block());
    synchronized (block) {
      block.reads++;
    }
  }

  /** Empties every block and hands its reads to {@code giveBack}: the shutdown's return. */
  void closeAll(BiConsumer<String, Integer> giveBack) {
    blocks.forEach(
        (agent, block) -> {
          int reads;
          synchronized (block) {
            reads = block.reads;
            block.reads = 0;
          }
          if (reads > 0) {
            giveBack.accept(agent, reads);
          }
        });
    blocks.clear();
  }

  /** Forgets blocks out of their window for {@code idleMs}, unless a refill of theirs runs. */
  void expire(long nowMs, long idleMs) {
    blocks
        .entrySet()
        .removeIf(
            e -> {
              synchronized (e.getValue()) {
                return !e.getValue().refilling && nowMs - e.getValue().countedMs >= idleMs;
              }
            });
  }
}
