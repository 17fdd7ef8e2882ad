package dev.toolgate.policy.breaker;

import dev.toolgate.policy.model.BreakerPolicy;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A circuit breaker per tool and backend (seed 000), as an explicit state machine over a
 * time-bucketed window.
 *
 * <ul>
 *   <li><b>Closed</b>: calls pass. Each outcome is counted; once the window holds {@code
 *       minimumCalls} and the failure ratio reaches {@code failureRatio} or the slow-call ratio
 *       reaches {@code slowCallRatio}, the breaker opens.
 *   <li><b>Open</b>: calls are refused at once. After {@code openSeconds} the next call finds it
 *       half-open.
 *   <li><b>Half-open</b>: at most {@code concurrentProbes} probe calls at a time; {@code
 *       probeCalls} successful probes close it (with an empty window), one failed probe reopens it.
 * </ul>
 *
 * <p>With peers (other replicas of the agent), the closed state decides on the sum of its window
 * and theirs, so failures spread thin over many replicas still open the circuit.
 *
 * <p>Failures are what {@code ResultClass.isBackendFailure()} says (transport, timeout, 429, 5xx),
 * never a tool's {@code isError}. Time is passed in by the caller: no clock inside, so tests move a
 * fake one. Each operation is O(windowSeconds) at most, synchronised, allocation-free except for
 * transitions. Illegal transitions throw.
 */
public final class CircuitBreaker {

  private static final Map<CircuitState, Set<CircuitState>> ALLOWED =
      Map.of(
          CircuitState.CLOSED, Set.of(CircuitState.OPEN),
          CircuitState.OPEN, Set.of(CircuitState.HALF_OPEN),
          CircuitState.HALF_OPEN, Set.of(CircuitState.OPEN, CircuitState.CLOSED));

  private final BreakerPolicy policy;
  private final CallWindow window;
  private final Consumer<Transition> listener;
  private final PeerWindows peers;
  private State state;

  public CircuitBreaker(BreakerPolicy policy, Consumer<Transition> listener) {
    this(policy, listener, PeerWindows.NONE);
  }

  /**
   * @param peers the other replicas' windows: while closed, the breaker decides on its own outcomes
   *     plus theirs (those since it last closed)
   */
  public CircuitBreaker(BreakerPolicy policy, Consumer<Transition> listener, PeerWindows peers) {
    this.policy = policy;
    this.window = new CallWindow(policy.windowSeconds());
    this.listener = listener;
    this.peers = peers;
    this.state = new Closed(Long.MIN_VALUE);
  }

  /**
   * Asks to let a call pass at {@code nowMs}. A permitted call must end in a result or a release.
   */
  public synchronized Permission tryAcquire(long nowMs) {
    return state.tryAcquire(nowMs);
  }

  /**
   * Records how a permitted call ended.
   *
   * @param failure whether the outcome was a backend failure
   * @param durationMs how long the call took (slow calls count against the breaker)
   */
  public synchronized void onResult(
      Permission permission, long nowMs, boolean failure, long durationMs) {
    state.onResult(permission, nowMs, failure, durationMs >= policy.slowCallMs());
  }

  /**
   * Opens a closed breaker because another replica opened its twin: the circuit is one across all
   * replicas. No effect unless closed.
   *
   * @param openedAtMs when the other replica opened it, so both probe at the same time
   */
  public synchronized void openFromPeer(long nowMs, long openedAtMs) {
    if (state.kind() == CircuitState.CLOSED) {
      lastOpenedAtMs = openedAtMs;
      transition(new Open(openedAtMs), nowMs, "opened by another replica");
    }
  }

  /** A permitted call ended without an outcome to judge (cancelled by the agent). */
  public synchronized void release(Permission permission) {
    state.release(permission);
  }

  public synchronized CircuitState state() {
    return state.kind();
  }

  /** When the breaker last opened (epoch ms), 0 if never: names the incident. */
  public synchronized long openedAtMs() {
    return state instanceof Open open ? open.openedAtMs : lastOpenedAtMs;
  }

  public synchronized WindowSnapshot window(long nowMs) {
    return window.snapshot(nowMs);
  }

  /** This replica's own buckets, for its peers (see {@link PeerWindows}). */
  public synchronized java.util.List<long[]> buckets(long nowMs) {
    return window.buckets(nowMs);
  }

  private long lastOpenedAtMs;

  private void transition(State next, long nowMs, String reason) {
    CircuitState from = state.kind();
    if (!ALLOWED.get(from).contains(next.kind())) {
      throw new IllegalStateException("illegal breaker transition " + from + " -> " + next.kind());
    }
    state = next;
    listener.accept(new Transition(from, next.kind(), nowMs, reason));
  }

  /** One state's behaviour. */
  private interface State {
    CircuitState kind();

    Permission tryAcquire(long nowMs);

    void onResult(Permission permission, long nowMs, boolean failure, boolean slow);

    default void release(Permission permission) {}
  }

  private final class Closed implements State {
    /** Peers' outcomes from before this moment belong to an earlier incident. */
    private final long sinceMs;

    Closed(long sinceMs) {
      this.sinceMs = sinceMs;
    }

    @Override
    public CircuitState kind() {
      return CircuitState.CLOSED;
    }

    @Override
    public Permission tryAcquire(long nowMs) {
      return new Permission(Permission.Verdict.PERMITTED, CircuitState.CLOSED, 0, "closed");
    }

    @Override
    public void onResult(Permission permission, long nowMs, boolean failure, boolean slow) {
      window.record(nowMs, failure, slow);
      WindowSnapshot w = window.snapshot(nowMs).plus(peers.snapshot(sinceMs, nowMs));
      if (w.calls() < policy.minimumCalls()) {
        return;
      }
      if (w.failureRatio() >= policy.failureRatio()) {
        open(
            nowMs,
            String.format(
                Locale.ROOT,
                "failure ratio %.2f >= %.2f over %d calls",
                w.failureRatio(),
                policy.failureRatio(),
                w.calls()));
      } else if (w.slowCallRatio() >= policy.slowCallRatio()) {
        open(
            nowMs,
            String.format(
                Locale.ROOT,
                "slow-call ratio %.2f >= %.2f over %d calls",
                w.slowCallRatio(),
                policy.slowCallRatio(),
                w.calls()));
      }
    }
  }

  private void open(long nowMs, String reason) {
    lastOpenedAtMs = nowMs;
    transition(new Open(nowMs), nowMs, reason);
  }

  private final class Open implements State {
    final long openedAtMs;

    Open(long openedAtMs) {
      this.openedAtMs = openedAtMs;
    }

    @Override
    public CircuitState kind() {
      return CircuitState.OPEN;
    }

    @Override
    public Permission tryAcquire(long nowMs) {
      long reopensAt = openedAtMs + policy.openSeconds() * 1000L;
      if (nowMs < reopensAt) {
        return new Permission(
            Permission.Verdict.REJECTED,
            CircuitState.OPEN,
            reopensAt - nowMs,
            "the circuit is open since " + (nowMs - openedAtMs) + " ms");
      }
      HalfOpen halfOpen = new HalfOpen();
      transition(halfOpen, nowMs, "open for " + policy.openSeconds() + " s: probing");
      return halfOpen.tryAcquire(nowMs);
    }

    @Override
    public void onResult(Permission permission, long nowMs, boolean failure, boolean slow) {
      // A call admitted before the circuit opened: its outcome no longer decides anything.
    }
  }

  private final class HalfOpen implements State {
    private int inFlight;
    private int successes;

    @Override
    public CircuitState kind() {
      return CircuitState.HALF_OPEN;
    }

    @Override
    public Permission tryAcquire(long nowMs) {
      if (inFlight >= policy.halfOpen().concurrentProbes()) {
        return new Permission(
            Permission.Verdict.REJECTED,
            CircuitState.HALF_OPEN,
            0,
            "half-open: " + inFlight + " probe(s) already running");
      }
      inFlight++;
      return new Permission(Permission.Verdict.PROBE, CircuitState.HALF_OPEN, 0, "half-open probe");
    }

    @Override
    public void onResult(Permission permission, long nowMs, boolean failure, boolean slow) {
      if (permission.verdict() != Permission.Verdict.PROBE) {
        return;
      }
      inFlight = Math.max(0, inFlight - 1);
      if (failure) {
        open(nowMs, "a half-open probe failed");
        return;
      }
      successes++;
      if (successes >= policy.halfOpen().probeCalls()) {
        window.clear();
        transition(new Closed(nowMs), nowMs, successes + " probe(s) succeeded");
      }
    }

    @Override
    public void release(Permission permission) {
      if (permission.verdict() == Permission.Verdict.PROBE) {
        inFlight = Math.max(0, inFlight - 1);
      }
    }
  }
}
