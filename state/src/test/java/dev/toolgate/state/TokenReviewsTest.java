package dev.toolgate.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The namespace comes from the API server's answer, never from the request; an answer is cached
 * until the token expires. The API server is fabric8's mock (the one part that cannot run here).
 */
@EnableKubernetesMockClient
class TokenReviewsTest {

  static final String PATH = "/apis/authentication.k8s.io/v1/tokenreviews";
  static final String AUDIENCE = "toolgate-state";
  static final String OPERATOR = "system:serviceaccount:toolgate:toolgate-operator";

  KubernetesMockServer server;
  KubernetesClient client;
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  private TokenReviews reviews() {
    return new TokenReviews(vertx, client, AUDIENCE, Set.of(OPERATOR), Clock.systemUTC());
  }

  /** A token shaped like a projected one: a JWT with an expiry (its signature is the server's). */
  private static String token(String subject, long expiresInMs) throws Exception {
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader(JWSAlgorithm.HS256),
            new JWTClaimsSet.Builder()
                .subject(subject)
                .expirationTime(new Date(System.currentTimeMillis() + expiresInMs))
                .build());
    jwt.sign(new MACSigner("0123456789abcdef0123456789abcdef"));
    return jwt.serialize();
  }

  private static TokenReview answer(boolean authenticated, String user, List<String> audiences) {
    return new TokenReviewBuilder()
        .withNewStatus()
        .withAuthenticated(authenticated)
        .withAudiences(audiences)
        .withNewUser()
        .withUsername(user)
        .endUser()
        .endStatus()
        .build();
  }

  @Test
  void theNamespaceAndServiceAccountComeFromTheApiServersAnswerAndAreCached() throws Exception {
    server
        .expect()
        .post()
        .withPath(PATH)
        .andReturn(
            201, answer(true, "system:serviceaccount:agents:ops-assistant", List.of(AUDIENCE)))
        .once();
    TokenReviews reviews = reviews();
    String token = token("system:serviceaccount:agents:ops-assistant", 600_000);

    Caller first = reviews.authenticate(token).await(10, TimeUnit.SECONDS);
    Caller again = reviews.authenticate(token).await(10, TimeUnit.SECONDS);

    assertThat(first).isEqualTo(Caller.sidecar("agents", "ops-assistant"));
    assertThat(again).isEqualTo(first);
    assertThat(server.getRequestCount()).as("one review for the token's life").isEqualTo(1);
    TokenReview sent =
        client
            .getKubernetesSerialization()
            .unmarshal(server.takeRequest().getBody().readUtf8(), TokenReview.class);
    assertThat(sent.getSpec().getAudiences()).containsExactly(AUDIENCE);
  }

  @Test
  void theOperatorsServiceAccountIsThePublisher() throws Exception {
    server
        .expect()
        .post()
        .withPath(PATH)
        .andReturn(201, answer(true, OPERATOR, List.of(AUDIENCE)))
        .once();

    assertThat(reviews().authenticate(token(OPERATOR, 600_000)).await(10, TimeUnit.SECONDS))
        .satisfies(caller -> assertThat(caller.publisher()).isTrue());
  }

  @Test
  void aRefusedTokenAnotherAudienceOrAUserThatIsNoServiceAccountIsRefusedSayingWhy()
      throws Exception {
    server
        .expect()
        .post()
        .withPath(PATH)
        .andReturn(
            201,
            new TokenReviewBuilder()
                .withNewStatus()
                .withAuthenticated(false)
                .withError("token has expired")
                .endStatus()
                .build())
        .once();
    server
        .expect()
        .post()
        .withPath(PATH)
        .andReturn(201, answer(true, "system:serviceaccount:agents:x", List.of("other")))
        .once();
    server
        .expect()
        .post()
        .withPath(PATH)
        .andReturn(201, answer(true, "kubernetes-admin", List.of(AUDIENCE)))
        .once();
    TokenReviews reviews = reviews();

    assertThatThrownBy(() -> reviews.authenticate(token("a", 600_000)).await(10, TimeUnit.SECONDS))
        .hasMessageContaining("the API server refused the token: token has expired");
    assertThatThrownBy(() -> reviews.authenticate(token("b", 600_000)).await(10, TimeUnit.SECONDS))
        .hasMessageContaining("not for audience toolgate-state");
    assertThatThrownBy(() -> reviews.authenticate(token("c", 600_000)).await(10, TimeUnit.SECONDS))
        .hasMessageContaining("not a ServiceAccount's (kubernetes-admin)");
  }
}
