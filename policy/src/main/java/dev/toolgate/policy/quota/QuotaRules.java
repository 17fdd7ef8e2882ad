package dev.toolgate.policy.quota;

import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.model.SessionQuota;
import dev.toolgate.policy.outcome.AgentCode;

/**
 * Check-and-count for per-session quotas split by effect (seed 002: 200 reads, 15 writes), a
 * per-session rate limit that stops a runaway loop within a minute, and optional per-agent totals.
 * Pure: the caller keeps {@link Usage} wherever it must be atomic (an in-memory map entry, a
 * Hazelcast entry processor) and stores the returned one. A refused call counts nothing.
 */
public final class QuotaRules {

  private QuotaRules() {}

  /**
   * @param verdict allowed or which limit refused
   * @param next the usage to store
   */
  public record Outcome(QuotaVerdict verdict, Usage next) {}

  /** A session's check. {@code usage} may be null (first call) or idle-expired. */
  public static Outcome session(Usage usage, boolean write, Quotas quotas, long nowMs) {
    Usage u = current(usage, quotas, nowMs);
    int inMinute = u.rate().inLastMinute(nowMs);
    if (inMinute + 1 > quotas.ratePerMinute()) {
      return new Outcome(
          new QuotaVerdict(
              false,
              AgentCode.RATE_LIMITED,
              "quotas.ratePerMinute",
              quotas.ratePerMinute(),
              inMinute),
          u);
    }
    Outcome counted = count(u, write, quotas.perSession(), "quotas.perSession", nowMs);
    if (!counted.verdict().allowed()) {
      return counted;
    }
    Usage next = counted.next();
    return new Outcome(
        counted.verdict(),
        new Usage(
            next.reads(),
            next.writes(),
            next.extraReads(),
            next.extraWrites(),
            nowMs,
            next.rate().count(nowMs)));
  }

  /**
   * @param granted how many reads were counted, at most the number asked for
   * @param next the usage to store
   */
  public record Reservation(int granted, Usage next) {}

  /**
   * Counts up to {@code reads} read calls at once, as if they had all arrived at {@code nowMs}: as
   * many as both the rate limit and the read quota still allow, possibly none. A replica hands them
   * out later without asking again (a read lease); what it does not use it gives back with {@link
   * #returnReads}. Never counts past a limit.
   */
  public static Reservation reserveReads(Usage usage, int reads, Quotas quotas, long nowMs) {
    return reserve(usage, reads, quotas, nowMs, false);
  }

  /**
   * Counts up to {@code reads} read calls in the second after that of {@code nowMs}, before it
   * starts: a lease for the next second, reserved while this one ends so that its first reads do
   * not wait. They are checked against the minute that ends now and counted in every minute checked
   * until their second has passed ({@link RateWindow#countAhead}), so they may be served from now
   * on without ever being missing from a minute they were served in. Given back with {@link
   * #returnReads} and their own second. Never counts past a limit.
   */
  public static Reservation reserveReadsAhead(Usage usage, int reads, Quotas quotas, long nowMs) {
    return reserve(usage, reads, quotas, nowMs, true);
  }

  private static Reservation reserve(
      Usage usage, int reads, Quotas quotas, long nowMs, boolean ahead) {
    if (reads < 0) {
      throw new IllegalArgumentException("reads to reserve must be >= 0, was " + reads);
    }
    Usage u = current(usage, quotas, nowMs);
    int rateRoom = quotas.ratePerMinute() - u.rate().inLastMinute(nowMs);
    int readRoom = quotas.perSession().read() + u.extraReads() - u.reads();
    int granted = Math.max(0, Math.min(reads, Math.min(rateRoom, readRoom)));
    if (granted == 0) {
      return new Reservation(0, u);
    }
    RateWindow rate = ahead ? u.rate().countAhead(nowMs, granted) : u.rate().count(nowMs, granted);
    return new Reservation(
        granted,
        new Usage(u.reads() + granted, u.writes(), u.extraReads(), u.extraWrites(), nowMs, rate));
  }

  /**
   * Gives back reads reserved in epoch second {@code second} and not used: off the read count and
   * off that second of the rate window, never below zero.
   */
  public static Usage returnReads(Usage usage, int reads, long second) {
    if (usage == null || reads <= 0) {
      return usage;
    }
    return returnWorkloadReads(usage, reads).withRate(usage.rate().uncount(second, reads));
  }

  /**
   * Moves {@code reads} counted in epoch second {@code second} to the second of {@code nowMs},
   * where they are served: a read lease kept through a pause. The read count is unchanged; the rate
   * window counts them from the second they are served in, so every minute that holds one of them
   * counts it. No limit is checked: they were counted before, and while {@code second} is within
   * the last minute the minute that ends now holds the same number of calls either way.
   */
  public static Usage moveReads(Usage usage, int reads, long second, long nowMs) {
    if (usage == null || reads <= 0) {
      return usage;
    }
    return new Usage(
        usage.reads(),
        usage.writes(),
        usage.extraReads(),
        usage.extraWrites(),
        nowMs,
        usage.rate().uncount(second, reads).count(nowMs, reads));
  }

  /**
   * Whether a call with this session usage opens a session: none yet, or idle-expired (a fresh
   * quota), which the workload's {@code newSessionsPerMinute} counts.
   */
  public static boolean opensSession(Usage session, Quotas quotas, long nowMs) {
    return session == null || nowMs - session.lastSeenMs() >= quotas.idleExpirySeconds() * 1000L;
  }

  /**
   * The workload's check, over all its sessions: the new sessions it opens per minute, then its
   * total ({@code quotas.perAgent}, or by default 10 sessions' worth).
   *
   * @param opensSession whether the call opens its session ({@link #opensSession})
   */
  public static Outcome agent(
      Usage usage, boolean write, boolean opensSession, Quotas quotas, long nowMs) {
    Usage u = current(usage, quotas, nowMs);
    if (opensSession) {
      int opened = u.rate().inLastMinute(nowMs);
      if (opened + 1 > quotas.newSessionsPerMinute()) {
        return new Outcome(
            new QuotaVerdict(
                false,
                AgentCode.RATE_LIMITED,
                "quotas.newSessionsPerMinute",
                quotas.newSessionsPerMinute(),
                opened),
            u);
      }
      u =
          new Usage(
              u.reads(), u.writes(), u.extraReads(), u.extraWrites(), nowMs, u.rate().count(nowMs));
    }
    return count(u, write, quotas.workloadLimit(), "quotas.perAgent", nowMs);
  }

  /**
   * Counts up to {@code reads} reads of the workload at once, as many as its total still allows,
   * possibly none: a block a replica hands out to the reads of any of the workload's sessions
   * without asking again. Never counts past the limit.
   */
  public static Reservation reserveWorkloadReads(
      Usage usage, int reads, Quotas quotas, long nowMs) {
    if (reads < 0) {
      throw new IllegalArgumentException("reads to reserve must be >= 0, was " + reads);
    }
    Usage u = current(usage, quotas, nowMs);
    int room = quotas.workloadLimit().read() + u.extraReads() - u.reads();
    int granted = Math.max(0, Math.min(reads, room));
    return granted == 0
        ? new Reservation(0, u)
        : new Reservation(
            granted,
            new Usage(
                u.reads() + granted, u.writes(), u.extraReads(), u.extraWrites(), nowMs, u.rate()));
  }

  /** Gives back workload reads reserved and not used, never below zero. */
  public static Usage returnWorkloadReads(Usage usage, int reads) {
    if (usage == null || reads <= 0) {
      return usage;
    }
    return new Usage(
        Math.max(0, usage.reads() - reads),
        usage.writes(),
        usage.extraReads(),
        usage.extraWrites(),
        usage.lastSeenMs(),
        usage.rate());
  }

  private static Usage current(Usage usage, Quotas quotas, long nowMs) {
    boolean idle =
        usage != null && nowMs - usage.lastSeenMs() >= quotas.idleExpirySeconds() * 1000L;
    return usage == null || idle ? Usage.fresh(nowMs) : usage;
  }

  private static Outcome count(
      Usage u, boolean write, SessionQuota limits, String name, long nowMs) {
    if (write) {
      int limit = limits.write() + u.extraWrites();
      if (u.writes() >= limit) {
        return new Outcome(
            new QuotaVerdict(false, AgentCode.QUOTA_EXCEEDED, name + ".write", limit, u.writes()),
            u);
      }
      return new Outcome(
          QuotaVerdict.ALLOWED,
          new Usage(u.reads(), u.writes() + 1, u.extraReads(), u.extraWrites(), nowMs, u.rate()));
    }
    int limit = limits.read() + u.extraReads();
    if (u.reads() >= limit) {
      return new Outcome(
          new QuotaVerdict(false, AgentCode.QUOTA_EXCEEDED, name + ".read", limit, u.reads()), u);
    }
    return new Outcome(
        QuotaVerdict.ALLOWED,
        new Usage(u.reads() + 1, u.writes(), u.extraReads(), u.extraWrites(), nowMs, u.rate()));
  }
}
