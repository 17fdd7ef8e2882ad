package dev.toolgate.state;

import com.nimbusds.jwt.JWTParser;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks a sidecar's projected ServiceAccount token with the API server (TokenReview, for this
 * service's audience) and derives the namespace and ServiceAccount from the answer. An answer is
 * cached until the token expires (at most {@value #MAX_CACHE_MS} ms), a refusal for {@value
 * #REFUSAL_CACHE_MS} ms, so the API server sees one review per token, not one per call.
 */
public final class TokenReviews implements Authenticator {

  static final long MAX_CACHE_MS = 600_000;
  static final long REFUSAL_CACHE_MS = 10_000;
  static final int MAX_CACHED = 10_000;
  private static final String SERVICE_ACCOUNT = "system:serviceaccount:";

  private record Cached(Caller caller, String refusal, long untilMs) {}

  private final Vertx vertx;
  private final KubernetesClient client;
  private final String audience;
  private final Set<String> publishers;
  private final Clock clock;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();

  /**
   * @param publishers the users allowed to publish configurations (the operator's ServiceAccount,
   *     {@code system:serviceaccount:<namespace>:<name>})
   */
  public TokenReviews(
      Vertx vertx, KubernetesClient client, String audience, Set<String> publishers, Clock clock) {
    this.vertx = vertx;
    this.client = client;
    this.audience = audience;
    this.publishers = Set.copyOf(publishers);
    this.clock = clock;
  }

  /**
   * One review of a token nobody holds, at start: the Kubernetes client's first call loads and
   * connects it, which would otherwise fall on the first sidecar's call and may outlast its
   * timeout. Its answer (a refusal) is not kept.
   */
  public Future<Void> warmUp() {
    return vertx
        .executeBlocking(() -> review("toolgate-state-warm-up", clock.millis()))
        .<Void>mapEmpty()
        .recover(e -> Future.succeededFuture());
  }

  @Override
  public Future<Caller> authenticate(String token) {
    String key = StateServer.sha256(token);
    long now = clock.millis();
    Cached hit = cache.get(key);
    if (hit != null && hit.untilMs() > now) {
      return hit.caller() != null
          ? Future.succeededFuture(hit.caller())
          : Future.failedFuture(hit.refusal());
    }
    return vertx
        .executeBlocking(() -> review(token, now))
        .map(
            cached -> {
              if (cache.size() >= MAX_CACHED) {
                cache.values().removeIf(c -> c.untilMs() <= clock.millis());
                if (cache.size() >= MAX_CACHED) {
                  cache.clear();
                }
              }
              cache.put(key, cached);
              return cached;
            })
        .compose(
            cached ->
                cached.caller() != null
                    ? Future.succeededFuture(cached.caller())
                    : Future.failedFuture(cached.refusal()));
  }

  private Cached review(String token, long now) {
    TokenReview answer =
        client
            .resource(
                new TokenReviewBuilder()
                    .withNewSpec()
                    .withToken(token)
                    .withAudiences(audience)
                    .endSpec()
                    .build())
            .create();
    var status = answer.getStatus();
    if (status == null || !Boolean.TRUE.equals(status.getAuthenticated())) {
      String why =
          status == null || status.getError() == null ? "not authenticated" : status.getError();
      return refused("the API server refused the token: " + why, now);
    }
    List<String> audiences = status.getAudiences();
    if (audiences != null && !audiences.isEmpty() && !audiences.contains(audience)) {
      return refused("the token is not for audience " + audience, now);
    }
    String user = status.getUser() == null ? null : status.getUser().getUsername();
    long until = Math.min(now + MAX_CACHE_MS, expiry(token, now));
    if (user != null && publishers.contains(user)) {
      return new Cached(Caller.publisher(user), null, until);
    }
    if (user == null || !user.startsWith(SERVICE_ACCOUNT)) {
      return refused("the token is not a ServiceAccount's (" + user + ")", now);
    }
    String[] parts = user.substring(SERVICE_ACCOUNT.length()).split(":", 2);
    if (parts.length != 2 || parts[0].isEmpty()) {
      return refused("the token's user is not namespace:name (" + user + ")", now);
    }
    return new Cached(Caller.sidecar(parts[0], parts[1]), null, until);
  }

  private static Cached refused(String why, long now) {
    return new Cached(null, why, now + REFUSAL_CACHE_MS);
  }

  /** The token's own expiry (the API server checked its signature); a short one if unreadable. */
  private static long expiry(String token, long now) {
    try {
      Date exp = JWTParser.parse(token).getJWTClaimsSet().getExpirationTime();
      return exp == null ? now + REFUSAL_CACHE_MS : exp.getTime();
    } catch (java.text.ParseException e) {
      return now + REFUSAL_CACHE_MS;
    }
  }
}
