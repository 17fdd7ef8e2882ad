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
 */
public record SidecarOptions(Path configFile, ConfigTrust trust, EventSink events, Clock clock) {

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
    return new SidecarOptions(configFile, trust, sink, clock);
  }
}
