package dev.toolgate.e2e.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The demo MCP backend's jar, run as its own process on loopback. */
public final class DemoBackend {

  private DemoBackend() {}

  /** The built jar under {@code root}; fails naming the build step when it is missing. */
  public static Path jar(Path root) {
    Path jar = root.resolve("e2e/demo-backend/target/toolgate-demo-backend.jar");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          jar + " is missing: build the project first (./mvnw -B verify builds it)");
    }
    return jar;
  }

  /**
   * Starts it on {@code 127.0.0.1:port}, its output in {@code logs/<name>.out} and {@code .err}.
   *
   * @param options more of the backend's options, e.g. {@code --require-bearer-file FILE}
   */
  public static LocalProcess start(String name, Path root, Path logs, int port, String... options)
      throws IOException {
    List<String> arguments = new ArrayList<>();
    arguments.addAll(
        List.of(
            "-jar", jar(root).toString(), "--host", "127.0.0.1", "--port", Integer.toString(port)));
    arguments.addAll(List.of(options));
    return LocalProcess.java(name, logs, arguments);
  }
}
