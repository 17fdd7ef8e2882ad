package dev.toolgate.sidecar.state.api;

import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.model.SessionQuota;
import dev.toolgate.policy.outcome.AgentCode;
import dev.toolgate.policy.quota.QuotaVerdict;
import io.vertx.core.json.JsonObject;

/**
 * The state service's request and answer bodies, shared by the service and its client so the two
 * cannot drift apart. Paths are here too.
 */
public final class StateWire {

  public static final String CONSUME = "/v1/quotas/consume";
  public static final String RAISE = "/v1/quotas/raise";
  public static final String RESET = "/v1/quotas/reset";
  public static final String BEGIN = "/v1/idempotency/begin";
  public static final String COMPLETE = "/v1/idempotency/complete";
  public static final String AMBIGUOUS = "/v1/idempotency/ambiguous";
  public static final String RELEASE = "/v1/idempotency/release";
  public static final String OPENED = "/v1/circuits/opened";
  public static final String CLOSED = "/v1/circuits/closed";
  public static final String PROBE = "/v1/circuits/probe";
  public static final String RELEASE_PROBE = "/v1/circuits/release";
  public static final String WINDOW = "/v1/circuits/window";
  public static final String NEWS = "/v1/circuits/news";

  /**
   * {@code GET} (a sidecar, its own namespace) or {@code PUT} (the operator) + {@code ns/policy}.
   */
  public static final String CONFIGS = "/v1/configs/";

  private StateWire() {}

  public static JsonObject quotas(Quotas q) {
    JsonObject o =
        new JsonObject()
            .put("perSession", session(q.perSession()))
            .put("ratePerMinute", q.ratePerMinute())
            .put("idleExpirySeconds", q.idleExpirySeconds())
            .put("newSessionsPerMinute", q.newSessionsPerMinute());
    if (q.perAgent() != null) {
      o.put("perAgent", session(q.perAgent()));
    }
    return o;
  }

  /** The quotas a request names; an {@link IllegalArgumentException} naming the bad field. */
  public static Quotas quotas(JsonObject o) {
    if (o == null) {
      throw new IllegalArgumentException("quotas: missing");
    }
    return new Quotas(
        session(o.getJsonObject("perSession"), "quotas.perSession"),
        o.getJsonObject("perAgent") == null
            ? null
            : session(o.getJsonObject("perAgent"), "quotas.perAgent"),
        positive(o, "ratePerMinute"),
        positive(o, "idleExpirySeconds"),
        null,
        o.getValue("newSessionsPerMinute") == null ? null : positive(o, "newSessionsPerMinute"));
  }

  public static JsonObject verdict(QuotaVerdict v) {
    return new JsonObject()
        .put("allowed", v.allowed())
        .put("code", v.code() == null ? null : v.code().name())
        .put("limitName", v.limitName())
        .put("limit", v.limit())
        .put("used", v.used());
  }

  public static QuotaVerdict verdict(JsonObject o) {
    if (o.getBoolean("allowed", false)) {
      return QuotaVerdict.ALLOWED;
    }
    return new QuotaVerdict(
        false,
        AgentCode.valueOf(o.getString("code")),
        o.getString("limitName"),
        o.getInteger("limit", 0),
        o.getInteger("used", 0));
  }

  private static JsonObject session(SessionQuota q) {
    return new JsonObject().put("read", q.read()).put("write", q.write());
  }

  private static SessionQuota session(JsonObject o, String name) {
    if (o == null) {
      throw new IllegalArgumentException(name + ": missing");
    }
    return new SessionQuota(nonNegative(o, "read", name), nonNegative(o, "write", name));
  }

  private static int nonNegative(JsonObject o, String field, String parent) {
    if (!(o.getValue(field) instanceof Integer value) || value < 0) {
      throw new IllegalArgumentException(
          parent + "." + field + ": must be an integer >= 0, was " + o.getValue(field));
    }
    return value;
  }

  private static int positive(JsonObject o, String field) {
    if (!(o.getValue(field) instanceof Integer value) || value < 1) {
      throw new IllegalArgumentException(
          "quotas." + field + ": must be an integer >= 1, was " + o.getValue(field));
    }
    return value;
  }
}
