package dev.toolgate.policy.breaker;

import java.util.Locale;

/** The three states of a circuit breaker. */
public enum CircuitState {
  /** Calls pass; outcomes are counted in the window. */
  CLOSED,
  /** Calls are refused at once until {@code openSeconds} have passed. */
  OPEN,
  /** A few probe calls test the backend; their outcomes close or reopen the circuit. */
  HALF_OPEN;

  private final String wireName = name().toLowerCase(Locale.ROOT);

  public String wireName() {
    return wireName;
  }
}
