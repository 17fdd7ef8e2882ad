package dev.toolgate.bench;

import dev.toolgate.e2e.support.ImageRecipe;
import dev.toolgate.e2e.support.LoopbackPorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A built checkout's sidecar as its image has it: its recipe's files staged in {@code app} (jar,
 * JVM options), the archives its recipe's training steps recorded there, and its image's
 * environment; {@code clientArchive} is null for a checkout whose image records one archive only.
 */
record SidecarBuild(String suffix, Path root, Path app, Path archive, Path clientArchive) {

  /**
   * A checkout's sidecar with the image's class-data sharing archives: the checkout's own
   * sidecar/Dockerfile staged in a directory of its own under {@code work} and its training steps
   * run there, as {@code ImageRecipesIT} does, so that each build is measured with the archives its
   * image records. An empty {@code suffix} is this checkout; another names a compared one.
   */
  static SidecarBuild stage(String suffix, Path checkout, Path work, Path logs) throws Exception {
    LoadBench.built(checkout.resolve("sidecar/target/toolgate-sidecar.jar"));
    Path app = work.resolve(suffix.isEmpty() ? "image" : "image-compared");
    ImageRecipe recipe = ImageRecipe.of(checkout, "sidecar/Dockerfile");
    recipe.stage(app, LoopbackPorts::next);
    recipe.runSteps(app, logs, suffix.isEmpty() ? "cds-training" : "cds-training-compared");
    Path clientArchive = app.resolve("toolgate-sidecar-client.jsa");
    return new SidecarBuild(
        suffix,
        checkout,
        app,
        app.resolve("toolgate-sidecar.jsa"),
        Files.exists(clientArchive) ? clientArchive : null);
  }

  Path jar() {
    return app.resolve("toolgate-sidecar.jar");
  }

  Path jvmOptions() {
    return app.resolve("jvm.options");
  }

  /**
   * The sidecar's JVM arguments as the image passes them: its options, its archive unless left out
   * (the client-mode one for a client, as the operator maps it), {@code flags}, the jar.
   */
  List<String> command(boolean withArchive, List<String> flags, Path config) throws IOException {
    List<String> args = new ArrayList<>(List.of("@" + jvmOptions()));
    if (withArchive) {
      boolean client =
          "client"
              .equals(
                  LoadBench.YAML
                      .readTree(config.toFile())
                      .path("sharedState")
                      .path("mode")
                      .asText());
      args.add(
          "-XX:SharedArchiveFile=" + (client && clientArchive != null ? clientArchive : archive));
    }
    args.addAll(flags);
    args.addAll(List.of("-jar", jar().toString(), "--config", config.toString()));
    if (checksConfigSignatures()) {
      // The bench writes its configurations by hand on this machine; a build from before signed
      // configurations knows no such flag.
      args.add("--allow-unsigned-config");
    }
    return args;
  }

  /** Whether this build can be a client of the state service (sharedState.mode api). */
  boolean hasApiMode() throws IOException {
    try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar().toFile())) {
      return zip.getEntry("dev/toolgate/sidecar/state/api/ApiStores.class") != null;
    }
  }

  /** Whether this build refuses unsigned configurations unless told otherwise. */
  boolean checksConfigSignatures() throws IOException {
    try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar().toFile())) {
      return zip.getEntry("dev/toolgate/sidecar/config/ConfigTrust.class") != null;
    }
  }
}
