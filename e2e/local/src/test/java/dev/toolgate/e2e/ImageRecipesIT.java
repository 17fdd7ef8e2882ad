package dev.toolgate.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.toolgate.e2e.support.LocalProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The images cannot be built here (no container engine), so their recipes are checked offline:
 * non-root numeric user, every COPY source built and let through .dockerignore, JVM options this
 * JVM accepts, and the sidecar's class-data sharing steps run for real (the training RUN records an
 * archive that the ENTRYPOINT's flags then map, with {@code -Xshare:on} making a bad archive fatal).
 */
class ImageRecipesIT {

  private static final Path ROOT = Path.of(System.getProperty("toolgate.root", "../..")).toAbsolutePath().normalize();

  @TempDir Path app;

  /** A Dockerfile's instructions, one per logical line. */
  record Recipe(List<String> lines) {
    static Recipe of(Path file) throws Exception {
      List<String> lines = new ArrayList<>();
      for (String line : Files.readAllLines(file)) {
        if (!line.isBlank() && !line.startsWith("#")) {
          lines.add(line.strip());
        }
      }
      return new Recipe(lines);
    }

    List<String> all(String instruction) {
      return lines.stream().filter(l -> l.startsWith(instruction + " ")).map(l -> l.substring(instruction.length() + 1))
          .toList();
    }

    String last(String instruction) {
      List<String> found = all(instruction);
      return found.get(found.size() - 1);
    }

    static List<String> exec(String json) throws Exception {
      return LocalStack.JSON.readValue(json, new TypeReference<List<String>>() {});
    }
  }

  private static List<String> dockerignoreExceptions() throws Exception {
    return Files.readAllLines(ROOT.resolve(".dockerignore")).stream().filter(l -> l.startsWith("!"))
        .map(l -> l.substring(1)).toList();
  }

  private static void checkCommon(Recipe recipe) throws Exception {
    String user = recipe.last("USER");
    assertThat(user).as("the final user").matches("\\d+:\\d+");
    assertThat(Integer.parseInt(user.split(":")[0])).as("not root").isPositive();
    assertThat(recipe.all("FROM")).as("a distroless base without shell").allMatch(f -> f.startsWith("gcr.io/distroless/java17"));
    List<String> allowed = dockerignoreExceptions();
    for (String copy : recipe.all("COPY")) {
      String source = copy.split("\\s+")[0];
      assertThat(ROOT.resolve(source)).as("COPY source %s is built", source).exists();
      assertThat(allowed).as(".dockerignore lets %s through", source).anyMatch(source::startsWith);
    }
  }

  /** Copies what the recipe copies into /app to the test's directory. */
  private void stage(Recipe recipe) throws Exception {
    for (String copy : recipe.all("COPY")) {
      String[] parts = copy.split("\\s+");
      Files.copy(ROOT.resolve(parts[0]), app.resolve(Path.of(parts[1]).getFileName()));
    }
  }

  /** The command with the image's /app paths mapped to the test's directory, without "java". */
  private List<String> local(List<String> command) {
    List<String> mapped = new ArrayList<>();
    for (String arg : command.subList(1, command.size())) {
      mapped.add(arg.replace("/app/", app + "/"));
    }
    return mapped;
  }

  @Test
  void theOperatorImageRunsAsANonRootUserWithOptionsThisJvmAccepts() throws Exception {
    Recipe recipe = Recipe.of(ROOT.resolve("operator/Dockerfile"));
    checkCommon(recipe);
    stage(recipe);
    List<String> entrypoint = local(Recipe.exec(recipe.last("ENTRYPOINT")));
    String help = LocalProcess.runJava(app, "operator-image", List.of(entrypoint.get(0), entrypoint.get(1),
        entrypoint.get(2), "--help"));
    assertThat(help).contains("Usage:");
    assertThat(Recipe.exec(recipe.last("CMD"))).containsExactly("run");
  }

  @Test
  void theSidecarImageRecordsAClassDataArchiveThatItsEntrypointMaps() throws Exception {
    Recipe recipe = Recipe.of(ROOT.resolve("sidecar/Dockerfile"));
    checkCommon(recipe);
    assertThat(recipe.last("EXPOSE")).isEqualTo("15000 15020");
    stage(recipe);
    List<String> training = local(Recipe.exec(recipe.last("RUN")));
    // The training configuration's fixed ports become free ones: the suite never binds a fixed port.
    Path config = app.resolve("cds-training.yaml");
    String yaml = Files.readString(config);
    for (String port : List.of("15000", "15020", "5701")) {
      yaml = yaml.replaceAll("port: " + Pattern.quote(port) + "\\b", "port: " + Http.freePort());
    }
    Files.writeString(config, yaml);

    LocalProcess.runJava(app, "cds-training", training);
    Path archive = app.resolve("toolgate-sidecar.jsa");
    assertThat(archive).exists();
    assertThat(Files.size(archive)).as("an archive of the classes a start loads").isGreaterThan(10L << 20);

    List<String> entrypoint = new ArrayList<>(local(Recipe.exec(recipe.last("ENTRYPOINT"))));
    entrypoint.add(1, "-Xshare:on");
    entrypoint.addAll(List.of("--config", config.toString(), "--exit-when-ready"));
    LocalProcess.runJava(app, "cds-start", entrypoint);
    assertThat(Files.readString(stderr("cds-start"))).contains("ready (/readyz 200); exiting as asked");

    // The chart's sidecar.javaOpts reach the entrypoint as JDK_JAVA_OPTIONS; the compact option
    // README "Performance" offers must leave the archive usable.
    LocalProcess.runJava(app, "cds-compact-start", entrypoint, Map.of("JDK_JAVA_OPTIONS", "-XX:TieredStopAtLevel=1"));
    assertThat(Files.readString(stderr("cds-compact-start")))
        .contains("Picked up JDK_JAVA_OPTIONS: -XX:TieredStopAtLevel=1", "ready (/readyz 200); exiting as asked");
  }

  private Path stderr(String run) throws IOException {
    try (var files = Files.list(app)) {
      return files.filter(p -> p.getFileName().toString().startsWith(run + "-")
          && p.getFileName().toString().endsWith(".err")).findFirst().orElseThrow();
    }
  }

  @Test
  void theChartDeploysTheImagesTheRecipesBuild() throws Exception {
    Map<?, ?> values = LocalStack.YAML.readValue(ROOT.resolve("charts/toolgate/values.yaml").toFile(), Map.class);
    assertThat(((Map<?, ?>) values.get("sidecar")).get("imageName")).isEqualTo("sidecar");
    assertThat(Files.readString(ROOT.resolve("sidecar/Dockerfile"))).contains("ghcr.io/toolgate/sidecar");
    assertThat(Files.readString(ROOT.resolve("operator/Dockerfile"))).contains("ghcr.io/toolgate/operator");
    assertThat(((Map<?, ?>) values.get("image")).get("registry")).isEqualTo("ghcr.io/toolgate");
  }
}
