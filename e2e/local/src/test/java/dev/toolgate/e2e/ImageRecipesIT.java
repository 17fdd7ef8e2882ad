package dev.toolgate.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.e2e.support.ImageRecipe;
import dev.toolgate.e2e.support.LocalProcess;
import dev.toolgate.e2e.support.LoopbackPorts;
import dev.toolgate.e2e.support.SidecarImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The images cannot be built here (no container engine), so their recipes are checked offline:
 * non-root numeric user, every COPY source built and let through .dockerignore, JVM options this
 * JVM accepts, and the sidecar's class-data sharing steps run for real (per shared-state mode, a
 * training RUN lists the classes a start loads and a second one dumps them into a static archive;
 * the image's and the operator's JDK_JAVA_OPTIONS then map them, with {@code -Xshare:on} making a
 * bad archive fatal).
 */
class ImageRecipesIT {

  private static final Path ROOT =
      Path.of(System.getProperty("toolgate.root", "../..")).toAbsolutePath().normalize();

  /**
   * A line of {@code ld.so --list-tunables}: {@code glibc.malloc.trim_threshold: 0x400000 (min:
   * …)}.
   */
  private static final Pattern TUNABLE = Pattern.compile("(\\S+): (\\S+) \\(min: .*");

  @TempDir Path app;

  private static List<String> dockerignoreExceptions() throws Exception {
    return Files.readAllLines(ROOT.resolve(".dockerignore")).stream()
        .filter(l -> l.startsWith("!"))
        .map(l -> l.substring(1))
        .toList();
  }

  private static void checkCommon(ImageRecipe recipe) throws Exception {
    String user = recipe.last("USER");
    assertThat(user).as("the final user").matches("\\d+:\\d+");
    assertThat(Integer.parseInt(user.split(":")[0])).as("not root").isPositive();
    assertThat(recipe.all("FROM"))
        .as("a distroless base without shell")
        .allMatch(f -> f.startsWith("gcr.io/distroless/java17"));
    List<String> allowed = dockerignoreExceptions();
    for (String copy : recipe.all("COPY")) {
      String source = copy.split("\\s+")[0];
      assertThat(ROOT.resolve(source)).as("COPY source %s is built", source).exists();
      assertThat(allowed).as(".dockerignore lets %s through", source).anyMatch(source::startsWith);
    }
  }

  /** The command with the image's /app paths mapped to the test's directory, without "java". */
  private List<String> local(List<String> command) {
    return ImageRecipe.local(command, app);
  }

  @Test
  void theOperatorImageRunsAsANonRootUserWithOptionsThisJvmAccepts() throws Exception {
    ImageRecipe recipe = ImageRecipe.of(ROOT, "operator/Dockerfile");
    checkCommon(recipe);
    recipe.stage(app, LoopbackPorts::next);
    List<String> entrypoint = local(ImageRecipe.exec(recipe.last("ENTRYPOINT")));
    String help =
        LocalProcess.runJava(
            app,
            "operator-image",
            List.of(entrypoint.get(0), entrypoint.get(1), entrypoint.get(2), "--help"));
    assertThat(help).contains("Usage:");
    assertThat(ImageRecipe.exec(recipe.last("CMD"))).containsExactly("run");
  }

  @Test
  void theStateImageRunsAsANonRootUserWithOptionsThisJvmAccepts() throws Exception {
    ImageRecipe recipe = ImageRecipe.of(ROOT, "state/Dockerfile");
    checkCommon(recipe);
    recipe.stage(app, LoopbackPorts::next);
    List<String> entrypoint = local(ImageRecipe.exec(recipe.last("ENTRYPOINT")));
    String help =
        LocalProcess.runJava(
            app,
            "state-image",
            List.of(entrypoint.get(0), entrypoint.get(1), entrypoint.get(2), "--help"));
    assertThat(help).contains("Usage: toolgate-state").contains("--token-review");
    assertThat(recipe.last("EXPOSE")).isEqualTo("8443 5701");
  }

  @Test
  void theSidecarImageRecordsAnArchivePerModeThatItsEntrypointAndTheOperatorMap() throws Exception {
    ImageRecipe recipe = ImageRecipe.of(ROOT, "sidecar/Dockerfile");
    checkCommon(recipe);
    assertThat(recipe.last("EXPOSE")).isEqualTo("17000 17020");
    // The training configurations' fixed ports become free ones: the suite never binds a fixed
    // port.
    recipe.stage(app, LoopbackPorts::next);
    Path embedded = app.resolve("cds-training.yaml");
    Path client = app.resolve("cds-training-client.yaml");

    assertThat(recipe.all("RUN"))
        .as("per archive, a training run that lists the classes, then the dump")
        .hasSize(4);
    recipe.runSteps(app, app, "cds-training");
    for (String archive : List.of("toolgate-sidecar.jsa", "toolgate-sidecar-client.jsa")) {
      assertThat(app.resolve(archive)).exists();
      assertThat(Files.size(app.resolve(archive)))
          .as("an archive of the classes a start loads")
          .isGreaterThan(10L << 20);
    }
    assertThat(Files.size(app.resolve("toolgate-sidecar-client.jsa")))
        .as("the client's classes, not the member's")
        .isLessThan(Files.size(app.resolve("toolgate-sidecar.jsa")));

    // The image's JDK_JAVA_OPTIONS maps the embedded archive; -Xshare:on makes an unusable one
    // fatal.
    List<String> entrypoint = new ArrayList<>(local(ImageRecipe.exec(recipe.last("ENTRYPOINT"))));
    entrypoint.add(1, "-Xshare:on");
    String imageOptions =
        recipe.all("ENV").stream()
            .filter(e -> e.startsWith("JDK_JAVA_OPTIONS="))
            .map(e -> e.substring("JDK_JAVA_OPTIONS=".length()))
            .findFirst()
            .orElseThrow();
    assertThat(imageOptions).isEqualTo("-XX:SharedArchiveFile=/app/toolgate-sidecar.jsa");
    start("cds-start", entrypoint, imageOptions, embedded, List.of());

    // The operator's JDK_JAVA_OPTIONS for injected sidecars, as its golden patch has it: the
    // client-mode archive, and with the chart's sidecar.javaOpts (the compact option) after it.
    String injected =
        LocalStack.JSON
            .readTree(
                ROOT.resolve("operator/src/test/resources/golden/agent-pod.patch.json").toFile())
            .findValues("env")
            .stream()
            .flatMap(env -> StreamSupport.stream(env.spliterator(), false))
            .filter(e -> e.path("name").asText().equals("JDK_JAVA_OPTIONS"))
            .map(e -> e.path("value").asText())
            .findFirst()
            .orElseThrow();
    assertThat(injected).isEqualTo("-XX:SharedArchiveFile=/app/toolgate-sidecar-client.jsa");
    start("cds-client-start", entrypoint, injected, client, List.of("--start-member"));
    start(
        "cds-compact-start",
        entrypoint,
        injected + " -XX:TieredStopAtLevel=1",
        client,
        List.of("--start-member"));
    assertThat(Files.readString(stderr("cds-compact-start"))).contains("-XX:TieredStopAtLevel=1");
  }

  /**
   * The entrypoint with {@code javaOptions} as JDK_JAVA_OPTIONS (its /app paths mapped), until
   * ready.
   */
  private void start(
      String run, List<String> entrypoint, String javaOptions, Path config, List<String> extra)
      throws Exception {
    List<String> command = new ArrayList<>(entrypoint);
    command.addAll(
        List.of("--config", config.toString(), "--allow-unsigned-config", "--exit-when-ready"));
    command.addAll(extra);
    LocalProcess.runJava(
        app, run, command, Map.of("JDK_JAVA_OPTIONS", javaOptions.replace("/app/", app + "/")));
    assertThat(Files.readString(stderr(run)))
        .contains("Picked up JDK_JAVA_OPTIONS", "ready (/readyz 200); exiting as asked");
  }

  private Path stderr(String run) throws IOException {
    try (var files = Files.list(app)) {
      return files
          .filter(
              p ->
                  p.getFileName().toString().startsWith(run + "-")
                      && p.getFileName().toString().endsWith(".err"))
          .findFirst()
          .orElseThrow();
    }
  }

  /**
   * glibc ignores a tunable it does not know, or a value out of range, without a word: its dynamic
   * loader lists each one as it took it from the image's environment. The image's base (distroless,
   * Debian 12) has the glibc of the machines this suite runs on, 2.36.
   */
  @Test
  void everyMallocSettingOfTheSidecarImageTakesEffect() throws Exception {
    Map<String, String> environment = SidecarImage.environment(ROOT);
    assertThat(environment)
        .as("the sidecar image's malloc settings")
        .containsKeys("MALLOC_ARENA_MAX", "GLIBC_TUNABLES");
    Map<String, Long> expected = new LinkedHashMap<>();
    expected.put("glibc.malloc.arena_max", Long.parseLong(environment.get("MALLOC_ARENA_MAX")));
    for (String tunable : environment.get("GLIBC_TUNABLES").split(":")) {
      String[] nameValue = tunable.split("=", 2);
      expected.put(nameValue[0], Long.parseLong(nameValue[1]));
    }
    Path loader =
        Stream.of("/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1")
            .map(Path::of)
            .filter(Files::isExecutable)
            .findFirst()
            .orElseThrow(
                () -> new AssertionError("no glibc dynamic loader at its x86-64 or arm64 path"));
    String listing =
        LocalProcess.run(
            app, "list-tunables", List.of(loader.toString(), "--list-tunables"), environment);

    Map<String, Long> taken = new LinkedHashMap<>();
    for (String line : listing.split("\n")) {
      Matcher m = TUNABLE.matcher(line);
      if (m.matches() && expected.containsKey(m.group(1))) {
        taken.put(m.group(1), Long.decode(m.group(2)));
      }
    }
    assertThat(taken).isEqualTo(expected);
  }

  @Test
  void theChartDeploysTheImagesTheRecipesBuild() throws Exception {
    Map<?, ?> values =
        LocalStack.YAML.readValue(ROOT.resolve("charts/toolgate/values.yaml").toFile(), Map.class);
    assertThat(((Map<?, ?>) values.get("sidecar")).get("imageName")).isEqualTo("sidecar");
    assertThat(((Map<?, ?>) values.get("state")).get("imageName")).isEqualTo("state");
    assertThat(Files.readString(ROOT.resolve("state/Dockerfile")))
        .contains("ghcr.io/toolgate/state");
    assertThat(Files.readString(ROOT.resolve("sidecar/Dockerfile")))
        .contains("ghcr.io/toolgate/sidecar");
    assertThat(Files.readString(ROOT.resolve("operator/Dockerfile")))
        .contains("ghcr.io/toolgate/operator");
    assertThat(((Map<?, ?>) values.get("image")).get("registry")).isEqualTo("ghcr.io/toolgate");
  }
}
