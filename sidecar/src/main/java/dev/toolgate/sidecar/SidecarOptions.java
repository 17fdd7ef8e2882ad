package dev.toolgate.sidecar;

import dev.toolgate.sidecar.evidence.EventSink;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.nio.file.Path;
import java.time.Clock;

/**
 * How to start a sidecar.
 *
 * @param configFile the YAML configuration; watched for changes
 * @param events where attempt events go (stdout in production)
 * @param clock the time source of events and expiries
 */
public record SidecarOptions(Path configFile, EventSink events, Clock clock) {

  public static SidecarOptions of(Path configFile) {
    // The descriptor itself, not System.out: a PrintStream hides write errors, the sink counts
    // them.
    return new SidecarOptions(
        configFile,
        EventSink.jsonLines(new FileOutputStream(FileDescriptor.out)),
        Clock.systemUTC());
  }

  public SidecarOptions withEvents(EventSink sink) {
    return new SidecarOptions(configFile, sink, clock);
  }
}
