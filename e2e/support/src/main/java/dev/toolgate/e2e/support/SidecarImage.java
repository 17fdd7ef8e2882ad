package dev.toolgate.e2e.support;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the sidecar image sets besides its JVM options, read from sidecar/Dockerfile (the one
 * source).
 */
public final class SidecarImage {

  private SidecarImage() {}

  /**
   * Names the image's class-data archive, an /app path: a local run maps its own on the command
   * line.
   */
  public static final String ARCHIVE_VARIABLE = "JDK_JAVA_OPTIONS";

  /**
   * The Dockerfile's {@code ENV NAME=value} lines, so that local sidecars run as in the image,
   * except {@value #ARCHIVE_VARIABLE}.
   */
  public static Map<String, String> environment(Path root) throws IOException {
    Map<String, String> environment = new LinkedHashMap<>();
    for (String variable : ImageRecipe.of(root, "sidecar/Dockerfile").all("ENV")) {
      int eq = variable.indexOf('=');
      if (eq > 0 && !variable.substring(0, eq).strip().equals(ARCHIVE_VARIABLE)) {
        environment.put(variable.substring(0, eq).strip(), variable.substring(eq + 1).strip());
      }
    }
    return environment;
  }

  /**
   * The java arguments that run the built sidecar jar of checkout {@code root} as its image does
   * ({@code @jvm.options}), on {@code config} written by hand (unsigned).
   */
  public static List<String> javaArguments(Path root, Path config) {
    return List.of(
        "@" + root.resolve("sidecar/src/main/jvm/jvm.options"),
        "-jar",
        root.resolve("sidecar/target/toolgate-sidecar.jar").toString(),
        "--config",
        config.toString(),
        "--allow-unsigned-config");
  }
}
