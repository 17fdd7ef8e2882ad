package dev.toolgate.sidecar.state.api;

import dev.toolgate.policy.idempotency.IdempotencyRecord;
import dev.toolgate.sidecar.state.IdempotencyStore;
import dev.toolgate.sidecar.state.hazelcast.UsageJson;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** Idempotency records kept by the state service, scoped there by this sidecar's namespace. */
final class ApiIdempotencyStore implements IdempotencyStore {

  private final StateApiClient client;

  ApiIdempotencyStore(StateApiClient client) {
    this.client = client;
  }

  @Override
  public Future<IdempotencyRecord> begin(
      String key, String argumentsHash, String correlationId, long nowMs) {
    return client
        .post(
            StateWire.BEGIN,
            new JsonObject()
                .put("key", key)
                .put("argumentsHash", argumentsHash)
                .put("correlationId", correlationId))
        .map(
            json -> {
              String record = json.getString("record");
              return record == null ? null : UsageJson.record(record);
            });
  }

  @Override
  public Future<Void> complete(String key, String answer, String operationId, long nowMs) {
    return client
        .post(
            StateWire.COMPLETE,
            new JsonObject().put("key", key).put("answer", answer).put("operationId", operationId))
        .mapEmpty();
  }

  @Override
  public Future<Void> markAmbiguous(String key, String operationId, long nowMs) {
    return client
        .post(StateWire.AMBIGUOUS, new JsonObject().put("key", key).put("operationId", operationId))
        .mapEmpty();
  }

  @Override
  public Future<Void> release(String key) {
    return client.post(StateWire.RELEASE, new JsonObject().put("key", key)).mapEmpty();
  }
}
