package dev.toolgate.policy.model;

/**
 * The bounds the model's fields carry as schema annotations ({@code @Size}, {@code @Min}, {@code
 * Max}, {@code @Pattern}): the CRD's OpenAPI schema is generated from them, the API server's cost
 * estimate of its rules depends on them, and {@link dev.toolgate.policy.validation.SchemaBounds}
 * enforces the same annotations on every policy the sidecar or the operator binds.
 */
public final class Bounds {

  private Bounds() {}

  public static final long HOUR_SECONDS = 3_600;
  public static final long DAY_SECONDS = 86_400;
  public static final long WEEK_SECONDS = 7 * DAY_SECONDS;
  public static final long HOUR_MS = HOUR_SECONDS * 1_000;
  public static final long DAY_MS = DAY_SECONDS * 1_000;

  /** The largest count: quotas, rates, minimum calls. */
  public static final long COUNT = 1_000_000_000;

  /** Concurrent or successive probes of a half-open breaker. */
  public static final long PROBES = 1_000;

  /** Items of a short list (result classes, key components). */
  public static final long ITEMS = 16;

  /** A URL's characters. */
  public static final long URL_LENGTH = 2_048;

  /** A file path (a Secret key in a ToolPolicy). */
  public static final long FILE_LENGTH = 1_024;

  /** A JSON pointer into a tool's arguments, or a named key component. */
  public static final long POINTER_LENGTH = 256;
}
