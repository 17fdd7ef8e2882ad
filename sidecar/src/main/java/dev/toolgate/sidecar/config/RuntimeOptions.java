package dev.toolgate.sidecar.config;

/**
 * How the sidecar itself behaves, apart from the policy.
 *
 * @param maxBodyBytes a request body larger than this is refused with 413
 * @param configPollMs how often the config file is checked for a change
 * @param connectTimeoutMs how long connecting to an upstream may take
 */
public record RuntimeOptions(Integer maxBodyBytes, Long configPollMs, Long connectTimeoutMs) {
  public static final int DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
  public static final long DEFAULT_CONFIG_POLL_MS = 1_000;
  public static final long DEFAULT_CONNECT_TIMEOUT_MS = 2_000;

  public static final RuntimeOptions DEFAULT = new RuntimeOptions(null, null, null);

  public RuntimeOptions {
    maxBodyBytes = maxBodyBytes == null ? DEFAULT_MAX_BODY_BYTES : maxBodyBytes;
    configPollMs = configPollMs == null ? DEFAULT_CONFIG_POLL_MS : configPollMs;
    connectTimeoutMs = connectTimeoutMs == null ? DEFAULT_CONNECT_TIMEOUT_MS : connectTimeoutMs;
  }
}
