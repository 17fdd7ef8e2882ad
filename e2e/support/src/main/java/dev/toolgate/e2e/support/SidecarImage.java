package dev.toolgate.e2e.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** What the sidecar image sets besides its JVM options, read from sidecar/Dockerfile (the one source). */
public final class SidecarImage {

  private SidecarImage() {}

  /** The Dockerfile's {@code ENV NAME=value} lines, so that local sidecars run as in the image. */
  public static Map<String, String> environment(Path root) throws IOException {
    Map<String, String> environment = new LinkedHashMap<>();
    for (String line : Files.readAllLines(root.resolve("sidecar/Dockerfile"))) {
      int eq = line.indexOf('=');
      if (line.startsWith("ENV ") && eq > 0) {
        environment.put(line.substring(4, eq).strip(), line.substring(eq + 1).strip());
      }
    }
    return environment;
  }
}
