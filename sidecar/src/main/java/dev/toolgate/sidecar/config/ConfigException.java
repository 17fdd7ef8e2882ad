package dev.toolgate.sidecar.config;

import java.util.List;

/** A configuration file that cannot be used; the message names each bad field and value. */
public final class ConfigException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient List<String> problems;

  public ConfigException(String source, List<String> problems) {
    super(source + ": " + String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  public List<String> problems() {
    return problems;
  }
}
