package dev.toolgate.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Vert.x options a sidecar runs on ({@link Sidecar#vertxOptions}). */
class VertxOptionsTest {

  @Test
  void createsNoFileCacheDirectoryWhereDefaultVertxCreatesOne(
      @TempDir Path sidecarBase, @TempDir Path defaultBase) throws Exception {
    VertxOptions sidecar = Sidecar.vertxOptions();
    sidecar.getFileSystemOptions().setFileCacheDir(sidecarBase.resolve("vertx-cache").toString());
    VertxOptions byDefault = new VertxOptions();
    byDefault.getFileSystemOptions().setFileCacheDir(defaultBase.resolve("vertx-cache").toString());

    Vertx sidecarVertx = Vertx.vertx(sidecar);
    Vertx defaultVertx = Vertx.vertx(byDefault);
    try {
      assertThat(entries(defaultBase))
          .as("the control: Vert.x's default makes a cache directory")
          .singleElement()
          .asString()
          .startsWith("vertx-cache-");
      assertThat(entries(sidecarBase)).isEmpty();
    } finally {
      sidecarVertx.close().await(10, TimeUnit.SECONDS);
      defaultVertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  private static List<String> entries(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).toList();
    }
  }
}
