package dev.toolgate.sidecar;

import dev.toolgate.sidecar.config.ConfigTrust;
import dev.toolgate.sidecar.evidence.EventSink;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.nio.file.Path;
import java.time.Clock;

/**
 * How to start a sidecar.
 *
 * @param configFile the YAML configuration; watched for changes
 * @param trust which configuration documents to apply: whose signatures, or an unsigned file
 * @param events where attempt events go (stdout in production)
 * @param clock the time source of events and expiries
 * @param agentId the workload this sidecar serves, set at admission; null keeps the configuration's
 *     {@code agent.id}
 * @param warmupCalls the warm-up's calls, set at admission for one pod; null keeps the
 *     configuration's {@code runtime.warmupCalls}
 */
public record SidecarOptions(
    Path configFile,
    ConfigTrust trust,
    EventSink events,
    Clock clock,
    String agentId,
    Integer warmupCalls) {

  public SidecarOptions(Path configFile, ConfigTrust trust, EventSink events, Clock clock) {
    this(configFile, trust, events, clock, null, null);
  }

  public SidecarOptions withAgent(String id) {
    return new SidecarOptions(configFile, trust, events, clock, id, warmupCalls);
  }

  public SidecarOptions withWarmupCalls(Integer calls) {
    return new SidecarOptions(configFile, trust, events, clock, agentId, calls);
  }

  public static SidecarOptions of(Path configFile, ConfigTrust trust) {
    // The descriptor itself, not System.out: a PrintStream hides write errors, the sink counts
    // them.
    return new SidecarOptions(
        configFile,
        trust,
        EventSink.jsonLines(new FileOutputStream(FileDescriptor.out)),
        Clock.systemUTC());
  }

  public SidecarOptions withEvents(EventSink sink) {
    return new SidecarOptions(configFile, trust, sink, clock, agentId, warmupCalls);
  }
}
