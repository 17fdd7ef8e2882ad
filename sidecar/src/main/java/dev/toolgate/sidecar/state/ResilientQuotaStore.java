package dev.toolgate.sidecar.state;

import dev.toolgate.policy.config.SharedStateOptions.WhenUnavailable;
import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.quota.QuotaVerdict;
import dev.toolgate.policy.quota.Usage;
import io.vertx.core.Future;
import java.util.function.Consumer;

/**
 * The shared quota store, with a way out when the cluster cannot be reached: reads are counted on
 * local state; writes follow the configured choice ({@code fail_closed} refuses them, {@code
 * fail_open} counts them locally). A refused credential refuses writes whatever the choice: it is
 * no outage. Availability is reported to {@code up}.
 */
public final class ResilientQuotaStore implements QuotaStore {

  private final QuotaStore shared;
  private final QuotaStore local;
  private final WhenUnavailable writes;
  private final Consumer<Boolean> up;

  public ResilientQuotaStore(
      QuotaStore shared, QuotaStore local, WhenUnavailable writes, Consumer<Boolean> up) {
    this.shared = shared;
    this.local = local;
    this.writes = writes;
    this.up = up;
  }

  @Override
  public Future<QuotaVerdict> consume(
      String session, String agent, boolean write, Quotas quotas, long nowMs) {
    return shared
        .consume(session, agent, write, quotas, nowMs)
        .onSuccess(v -> up.accept(true))
        .recover(
            e -> {
              up.accept(false);
              if (write && e instanceof CredentialRefused refused) {
                return Future.failedFuture(
                    new IllegalStateException(
                        "the shared state refused this sidecar's credential ("
                            + refused.getMessage()
                            + "): writes are refused until it accepts one",
                        e));
              }
              if (write && writes == WhenUnavailable.FAIL_CLOSED) {
                return Future.failedFuture(
                    new IllegalStateException(
                        "the shared quota state is unreachable and writes fail closed"
                            + " (sharedState.writesWhenUnavailable): "
                            + e.getMessage(),
                        e));
              }
              return local.consume(session, agent, write, quotas, nowMs);
            });
  }

  @Override
  public void expire(long nowMs, long idleMs) {
    shared.expire(nowMs, idleMs);
    local.expire(nowMs, idleMs);
  }

  @Override
  public Future<Void> close() {
    return shared.close();
  }

  @Override
  public Future<Usage> raise(String session, int reads, int writes, long nowMs) {
    return shared.raise(session, reads, writes, nowMs);
  }

  @Override
  public Future<Void> reset(String session) {
    return shared.reset(session);
  }
}
