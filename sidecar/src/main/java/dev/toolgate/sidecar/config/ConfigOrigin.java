package dev.toolgate.sidecar.config;

/** Where a configuration document was read. */
public enum ConfigOrigin {
  /** The mounted file given by {@code --config}. */
  FILE("file"),
  /** The operator's publication, followed through the shared state. */
  SHARED_STATE("shared state");

  private final String label;

  ConfigOrigin(String label) {
    this.label = label;
  }

  /** How {@code /config} and the log name it. */
  public String label() {
    return label;
  }
}
