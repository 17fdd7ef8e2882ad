package dev.toolgate.sidecar.config;

import dev.toolgate.policy.validation.Redacted;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the configuration file by polling its bytes (robust to the symlink swap of a mounted
 * ConfigMap, which file-change notifications miss), and takes the operator's publications from the
 * shared state. A changed document that is trusted ({@link ConfigTrust}: signed, later than the
 * running one) and valid is applied; any other is refused, logged and counted with the reason, and
 * the last good configuration stays in force.
 */
public final class ConfigReloader {

  private static final Logger LOG = LoggerFactory.getLogger(ConfigReloader.class);

  /** What a reload came to, for metrics and {@code /config}. */
  public interface Listener {
    void applied(LoadedConfig config);

    void rejected(ConfigException problem);
  }

  /**
   * The last refused document, shown by {@code /config}.
   *
   * @param from where it was read
   * @param outcome why, in a word ({@code invalid}, {@code bad_signature}, {@code stale}...)
   */
  public record Rejection(
      String hash, ConfigOrigin from, String outcome, String message, Instant at) {}

  private final Vertx vertx;
  private final Path file;
  private final ConfigLoader loader;
  private final Listener listener;
  private final Clock clock;
  private volatile String lastSeenHash;
  private volatile LoadedConfig applied;
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
    this.applied = initial;
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
    offer(ConfigOrigin.FILE, raw);
  }

  /**
   * A configuration from another source (the operator's publication in the shared state). The file
   * and the publication converge on the same bytes; what is already applied is skipped. Must be
   * called on the sidecar's context.
   */
  public void offer(ConfigOrigin from, byte[] raw) {
    String hash = ConfigLoader.sha256(raw);
    if (hash.equals(applied.hash())) {
      return;
    }
    // Relative paths in any document resolve against the file's directory, wherever it came from.
    String source = file.toString();
    vertx
        .executeBlocking(() -> loader.parse(from, source, raw))
        .compose(
            loaded -> {
              if (loaded.hash().equals(applied.hash())) {
                return Future.succeededFuture();
              }
              try {
                ConfigTrust.checkSuccession(applied, loaded, source);
              } catch (ConfigException e) {
                return Future.failedFuture(e);
              }
              applied = loaded;
              lastRejection = null;
              LOG.info(
                  "configuration reloaded from the {}: revision {}, hash {}, {}",
                  from.label(),
                  loaded.config().revision(),
                  loaded.shortHash(),
                  loaded.provenance().describe());
              listener.applied(loaded);
              return Future.succeededFuture();
            })
        .onFailure(
            e -> {
              ConfigException problem =
                  e instanceof ConfigException c
                      ? c
                      : new ConfigException(source, java.util.List.of(e.toString()));
              String message = Redacted.text(problem.getMessage());
              lastRejection =
                  new Rejection(hash, from, problem.outcome(), message, clock.instant());
              LOG.warn(
                  "configuration from the {} refused ({}), keeping the active one: {}",
                  from.label(),
                  problem.outcome(),
                  message);
              listener.rejected(problem);
            });
  }
}
