package dev.toolgate.sidecar.evidence;

import java.util.Locale;

/** What the sidecar did with an attempt: the evidence's {@code decision}. */
public enum Decision {
  /** The answer went to the agent. */
  FORWARDED,
  /** The attempt failed and another one follows. */
  RETRIED,
  /** The attempt failed and none follows; {@code reason} says why. */
  FINAL,
  /** The agent went away; the attempt was cancelled upstream. */
  CANCELLED,
  /**
   * The agent sent {@code notifications/cancelled}: the attempt running was cancelled upstream, no
   * further attempt starts and no result is sent.
   */
  CANCELLED_BY_AGENT,
  /** The call was refused before reaching the backend: written {@code denied:<code>}. */
  DENIED,
  /** A write answered from its idempotency record, without calling the backend. */
  REPLAYED,
  /** An expensive read answered with an identical running call's answer. */
  SHARED,
  /** The lookup of an ambiguous write, under the lookup tool's name. */
  AMBIGUOUS_LOOKUP,
  /** The answer of an abandoned attempt: recorded, never forwarded. */
  LATE_RESULT,
  /** Relayed in shadow mode; {@code wouldHave} says what enforcement would have done. */
  SHADOW;

  private final String wireName = name().toLowerCase(Locale.ROOT);

  public String wireName() {
    return wireName;
  }
}
