package dev.toolgate.e2e.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * A member of Toolgate's state service on 127.0.0.1 (the jar as its image runs it), for runs on one
 * machine: a self-signed certificate for {@code localhost} made with {@code openssl}, and a static
 * token for the sidecars of namespace {@code bench} and one for the publisher.
 *
 * @param process the member's process
 * @param url the API's base URL
 * @param caFile the certificate the sidecars trust
 * @param tokenFile the sidecars' token
 */
public record LocalState(LocalProcess process, String url, Path caFile, Path tokenFile) {

  /** Starts the member from {@code stateJar} and returns once its API accepts connections. */
  public static LocalState start(Path work, Path logs, Path stateJar, int apiPort, int memberPort)
      throws IOException, InterruptedException {
    Path dir = Files.createDirectories(work.resolve("state"));
    Path cert = certificate(dir, logs);
    byte[] secret = new byte[24];
    new SecureRandom().nextBytes(secret);
    String token = "bench-" + HexFormat.of().formatHex(secret);
    Path tokenFile = Files.writeString(dir.resolve("token"), token);
    Path tokens =
        Files.writeString(
            dir.resolve("tokens.json"),
            "{\"tokens\":[{\"token\":\""
                + token
                + "\",\"namespace\":\"bench\",\"workload\":\"bench\"}]}");
    LocalProcess member =
        member(
            "state",
            logs,
            stateJar,
            dir,
            apiPort,
            memberPort,
            List.of("127.0.0.1:" + memberPort),
            List.of("--tokens=" + tokens),
            Map.of());
    return new LocalState(member, "https://localhost:" + apiPort, cert, tokenFile);
  }

  /**
   * A self-signed certificate for {@code localhost} ({@code tls.crt}, {@code tls.key} in {@code
   * dir}), made with {@code openssl}; returns the certificate, which is also its own CA.
   */
  public static Path certificate(Path dir, Path logs) throws IOException, InterruptedException {
    Path cert = dir.resolve("tls.crt");
    Path key = dir.resolve("tls.key");
    Process openssl =
        new ProcessBuilder(
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:P-256",
                "-nodes",
                "-days",
                "2",
                "-subj",
                "/CN=localhost",
                "-addext",
                "subjectAltName=DNS:localhost",
                "-keyout",
                key.toString(),
                "-out",
                cert.toString())
            .redirectErrorStream(true)
            .redirectOutput(logs.resolve("openssl.log").toFile())
            .start();
    if (openssl.waitFor() != 0) {
      throw new IllegalStateException("openssl could not make a certificate: see openssl.log");
    }
    return cert;
  }

  /**
   * One member with the certificate in {@code tlsDir}, joining {@code members}, checking tokens as
   * {@code auth} says ({@code --tokens=FILE}, or {@code --token-review} and its options), once its
   * API accepts connections.
   */
  public static LocalProcess member(
      String name,
      Path logs,
      Path stateJar,
      Path tlsDir,
      int apiPort,
      int memberPort,
      List<String> members,
      List<String> auth,
      Map<String, String> environment)
      throws IOException, InterruptedException {
    if (!Files.isRegularFile(stateJar)) {
      throw new IllegalStateException("the state service's jar is needed, was " + stateJar);
    }
    List<String> args =
        new ArrayList<>(
            List.of(
                "-Xmx256m",
                "-jar",
                stateJar.toString(),
                "--tls-cert=" + tlsDir.resolve("tls.crt"),
                "--tls-key=" + tlsDir.resolve("tls.key"),
                "--api-host=127.0.0.1",
                "--api-port=" + apiPort,
                "--member-host=127.0.0.1",
                "--member-port=" + memberPort,
                "--members=" + String.join(",", members)));
    args.addAll(auth);
    return LocalProcess.java(name, logs, args, environment)
        .awaitListening(apiPort, 60, "the state member " + name);
  }
}
