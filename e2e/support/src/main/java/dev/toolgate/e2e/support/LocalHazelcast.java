package dev.toolgate.e2e.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A stock Hazelcast member on 127.0.0.1 (the jar as the chart's image runs it), cluster "toolgate".
 */
public final class LocalHazelcast {

  private LocalHazelcast() {}

  /** The member's configuration: one member on {@code port}, no discovery beyond itself. */
  public static String config(int port) {
    return """
        hazelcast:
          cluster-name: toolgate
          network:
            port: {port: %d, auto-increment: false}
            interfaces: {enabled: true, interfaces: [127.0.0.1]}
            join:
              auto-detection: {enabled: false}
              multicast: {enabled: false}
              tcp-ip: {enabled: true, member-list: ["127.0.0.1:%d"]}
          properties:
            hazelcast.phone.home.enabled: "false"
        """
        .formatted(port, port);
  }

  /**
   * Starts the member from {@code hazelcastJar} and returns once it accepts connections (60 s at
   * most).
   */
  public static LocalProcess start(Path work, Path logs, String hazelcastJar, int port)
      throws IOException, InterruptedException {
    if (hazelcastJar == null || !Files.isRegularFile(Path.of(hazelcastJar))) {
      throw new IllegalStateException(
          "the Hazelcast jar is needed to start a member, was " + hazelcastJar);
    }
    Path config = work.resolve("hazelcast.yaml");
    Files.writeString(config, config(port));
    LocalProcess member =
        LocalProcess.java(
            "hazelcast",
            logs,
            List.of(
                "-Xmx256m",
                "-Dhazelcast.config=" + config,
                "-Dhazelcast.logging.type=jdk",
                "-cp",
                hazelcastJar,
                "com.hazelcast.core.server.HazelcastMemberStarter"));
    member.awaitListening(port, 60, "the Hazelcast member");
    return member;
  }
}
