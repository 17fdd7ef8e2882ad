package dev.toolgate.sidecar.state.api;

import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.quota.QuotaVerdict;
import dev.toolgate.policy.quota.Usage;
import dev.toolgate.sidecar.state.QuotaStore;
import dev.toolgate.sidecar.state.hazelcast.UsageJson;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Quotas counted by the state service: one round trip per call, checked and counted there
 * atomically. The service scopes the session and agent by this sidecar's namespace.
 */
final class ApiQuotaStore implements QuotaStore {

  private final StateApiClient client;

  ApiQuotaStore(StateApiClient client) {
    this.client = client;
  }

  @Override
  public Future<QuotaVerdict> consume(
      String session, String agent, boolean write, Quotas quotas, long nowMs) {
    return client
        .post(
            StateWire.CONSUME,
            new JsonObject()
                .put("session", session)
                .put("agent", agent)
                .put("write", write)
                .put("quotas", StateWire.quotas(quotas)))
        .map(StateWire::verdict);
  }

  @Override
  public Future<Usage> raise(String session, int reads, int writes, long nowMs) {
    return client
        .post(
            StateWire.RAISE,
            new JsonObject().put("session", session).put("reads", reads).put("writes", writes))
        .map(json -> UsageJson.usage(json.encode()));
  }

  @Override
  public Future<Void> reset(String session) {
    return client.post(StateWire.RESET, new JsonObject().put("session", session)).mapEmpty();
  }
}
