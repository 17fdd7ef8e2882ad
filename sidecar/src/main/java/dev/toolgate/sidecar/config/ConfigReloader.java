package dev.toolgate.sidecar.config;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the configuration file by polling its bytes (robust to the symlink swap of a mounted
 * ConfigMap, which file-change notifications miss). A changed file that is valid is applied; an
 * invalid one is refused, logged and counted, and the last good configuration stays in force.
 */
public final class ConfigReloader {

  private static final Logger LOG = LoggerFactory.getLogger(ConfigReloader.class);

  /** What a reload came to, for metrics and {@code /config}. */
  public interface Listener {
    void applied(LoadedConfig config);

    void rejected(ConfigException problem);
  }

  /** The last refused file, shown by {@code /config}. */
  public record Rejection(String hash, String message, Instant at) {}

  private final Vertx vertx;
  private final Path file;
  private final ConfigLoader loader;
  private final Listener listener;
  private final Clock clock;
  private volatile String lastSeenHash;
  private volatile String appliedHash;
  private volatile Rejection lastRejection;
  private long timer = -1;

  public ConfigReloader(
      Vertx vertx,
      Path file,
      ConfigLoader loader,
      LoadedConfig initial,
      Listener listener,
      Clock clock) {
    this.vertx = vertx;
    this.file = file;
    this.loader = loader;
    this.listener = listener;
    this.clock = clock;
    this.lastSeenHash = initial.hash();
    this.appliedHash = initial.hash();
  }

  public void start(long periodMs) {
    timer = vertx.setPeriodic(periodMs, t -> check());
  }

  public void stop() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
  }

  public Rejection lastRejection() {
    return lastRejection;
  }

  private void check() {
    vertx
        .fileSystem()
        .readFile(file.toString())
        .onSuccess(this::consider)
        .onFailure(
            e ->
                LOG.warn(
                    "cannot read {}: {}; keeping the active configuration", file, e.toString()));
  }

  private void consider(Buffer bytes) {
    byte[] raw = bytes.getBytes();
    String hash = ConfigLoader.sha256(raw);
    if (hash.equals(lastSeenHash)) {
      return;
    }
    lastSeenHash = hash;
    offer("the file", raw);
  }

  /**
   * A configuration from another source (the operator's publication in the shared state). The file
   * and the publication converge on the same bytes; what is already applied is skipped. Must be
   * called on the sidecar's context.
   */
  public void offer(String from, byte[] raw) {
    String hash = ConfigLoader.sha256(raw);
    if (hash.equals(appliedHash)) {
      return;
    }
    vertx
        .executeBlocking(() -> loader.parse(file.toString(), raw))
        .onSuccess(
            loaded -> {
              if (loaded.hash().equals(appliedHash)) {
                return;
              }
              appliedHash = loaded.hash();
              lastRejection = null;
              LOG.info(
                  "configuration reloaded from {}: revision {}, hash {}",
                  from,
                  loaded.config().revision(),
                  loaded.shortHash());
              listener.applied(loaded);
            })
        .onFailure(
            e -> {
              ConfigException problem =
                  e instanceof ConfigException c
                      ? c
                      : new ConfigException(file.toString(), java.util.List.of(e.toString()));
              lastRejection = new Rejection(hash, problem.getMessage(), clock.instant());
              LOG.warn(
                  "configuration change refused, keeping the active one: {}", problem.getMessage());
              listener.rejected(problem);
            });
  }
}
