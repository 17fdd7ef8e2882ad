package dev.toolgate.policy.model;

/**
 * Calls allowed per session, split by effect (seed 002).
 *
 * @param read calls of read tools
 * @param write calls of write tools
 */
public record SessionQuota(Integer read, Integer write) {
  public static final int DEFAULT_READ = 200;
  public static final int DEFAULT_WRITE = 15;

  public static final SessionQuota DEFAULT = new SessionQuota(null, null);

  public SessionQuota {
    read = read == null ? DEFAULT_READ : read;
    write = write == null ? DEFAULT_WRITE : write;
  }
}
