package dev.toolgate.policy.breaker;

/**
 * The counts of a breaker's window at one moment.
 *
 * @param calls calls that ended in the window
 * @param failures of those, backend failures (transport, timeout, 429, 5xx)
 * @param slowCalls of those, calls slower than {@code slowCallMs}
 */
public record WindowSnapshot(int calls, int failures, int slowCalls) {

  public WindowSnapshot plus(WindowSnapshot other) {
    return new WindowSnapshot(
        calls + other.calls, failures + other.failures, slowCalls + other.slowCalls);
  }

  public double failureRatio() {
    return calls == 0 ? 0 : (double) failures / calls;
  }

  public double slowCallRatio() {
    return calls == 0 ? 0 : (double) slowCalls / calls;
  }
}
