package dev.toolgate.sidecar.config;

import java.util.List;

/**
 * A configuration that cannot be used; the message names each bad field and value, and {@link
 * #outcome()} says why in a word for {@code toolgate_config_reloads_total}.
 */
public final class ConfigException extends Exception {
  private static final long serialVersionUID = 1L;

  /** A document that is not a valid configuration. */
  public static final String INVALID = "invalid";

  private final transient List<String> problems;
  private final String outcome;

  public ConfigException(String source, List<String> problems) {
    this(source, problems, INVALID);
  }

  public ConfigException(String source, List<String> problems, String outcome) {
    super(source + ": " + String.join("; ", problems));
    this.problems = List.copyOf(problems);
    this.outcome = outcome;
  }

  public List<String> problems() {
    return problems;
  }

  /**
   * {@value #INVALID}, or why the document was not trusted ({@code unsigned}, {@code stale}...).
   */
  public String outcome() {
    return outcome;
  }
}
