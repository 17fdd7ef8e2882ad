package dev.toolgate.policy.breaker;

/**
 * A change of a breaker's state, with the reason.
 *
 * @param from the state left
 * @param to the state entered
 * @param atMs when
 * @param reason why, e.g. "failure ratio 0.60 >= 0.50 over 20 calls"
 */
public record Transition(CircuitState from, CircuitState to, long atMs, String reason) {}
