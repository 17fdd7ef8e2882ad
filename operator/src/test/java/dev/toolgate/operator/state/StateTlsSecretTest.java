package dev.toolgate.operator.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class StateTlsSecretTest {

  KubernetesClient client;

  @Test
  void theFirstReplicaMakesTheCertificateAndEveryReplicaReadsTheSameCa() throws Exception {
    List<String> names = StateTlsSecret.names("toolgate-state", "toolgate");
    String first =
        StateTlsSecret.caOf(client, "toolgate", "toolgate-state-tls", names, Instant.now());
    String second =
        StateTlsSecret.caOf(client, "toolgate", "toolgate-state-tls", names, Instant.now());

    assertThat(second).isEqualTo(first).startsWith("-----BEGIN CERTIFICATE-----");
    var data =
        client.secrets().inNamespace("toolgate").withName("toolgate-state-tls").get().getData();
    assertThat(data).containsOnlyKeys("tls.crt", "tls.key", "ca.crt");
    X509Certificate server =
        (X509Certificate)
            CertificateFactory.getInstance("X.509")
                .generateCertificate(
                    new ByteArrayInputStream(Base64.getDecoder().decode(data.get("tls.crt"))));
    assertThat(server.getSubjectAlternativeNames().stream().map(san -> (String) san.get(1)))
        .containsExactlyInAnyOrderElementsOf(names);
    assertThat(
            new String(Base64.getDecoder().decode(data.get("ca.crt")), StandardCharsets.US_ASCII))
        .isEqualTo(first);
  }
}
