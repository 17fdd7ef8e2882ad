package dev.toolgate.e2e.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** What the sidecar image sets besides its JVM options, read from sidecar/Dockerfile (the one source). */
public final class SidecarImage {

  private SidecarImage() {}

  /** Names the image's class-data archive, an /app path: a local run maps its own on the command line. */
  public static final String ARCHIVE_VARIABLE = "JDK_JAVA_OPTIONS";

  /**
   * The Dockerfile's {@code ENV NAME=value} lines, so that local sidecars run as in the image, except
   * {@value #ARCHIVE_VARIABLE}.
   */
  public static Map<String, String> environment(Path root) throws IOException {
    Map<String, String> environment = new LinkedHashMap<>();
    for (String line : Files.readAllLines(root.resolve("sidecar/Dockerfile"))) {
      int eq = line.indexOf('=');
      if (line.startsWith("ENV ") && eq > 0 && !line.substring(4, eq).strip().equals(ARCHIVE_VARIABLE)) {
        environment.put(line.substring(4, eq).strip(), line.substring(eq + 1).strip());
      }
    }
    return environment;
  }
}
