package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/** Calls allowed per session, split by effect (seed 002). */
public record SessionQuota(
    @JsonPropertyDescription("Calls of read tools.") @Min(0) @Max(Bounds.COUNT) Integer read,
    @JsonPropertyDescription("Calls of write tools.") @Min(0) @Max(Bounds.COUNT) Integer write) {
  public static final int DEFAULT_READ = 200;
  public static final int DEFAULT_WRITE = 15;

  public static final SessionQuota DEFAULT = new SessionQuota(null, null);

  public SessionQuota {
    read = read == null ? DEFAULT_READ : read;
    write = write == null ? DEFAULT_WRITE : write;
  }
}
