package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Whether decisions are applied ({@code enforce}) or only computed and recorded ({@code shadow}).
 */
public enum Mode {
  @JsonProperty("enforce")
  ENFORCE,
  @JsonProperty("shadow")
  SHADOW;

  private final String wireName = name().toLowerCase(java.util.Locale.ROOT);

  public String wireName() {
    return wireName;
  }
}
