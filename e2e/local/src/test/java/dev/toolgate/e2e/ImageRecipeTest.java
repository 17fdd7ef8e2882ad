package dev.toolgate.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolgate.e2e.support.ImageRecipe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImageRecipeTest {

  @TempDir Path root;
  @TempDir Path app;

  private ImageRecipe recipe(String dockerfile) throws Exception {
    Files.writeString(root.resolve("Dockerfile"), dockerfile);
    return ImageRecipe.of(root, "Dockerfile");
  }

  @Test
  void readsInstructionsInOrderWithoutCommentsOrBlankLines() throws Exception {
    ImageRecipe recipe =
        recipe(
            """
        # a comment
        FROM base
        USER 0:0

        USER 65532:65532
        """);

    assertThat(recipe.all("USER")).containsExactly("0:0", "65532:65532");
    assertThat(recipe.last("USER")).isEqualTo("65532:65532");
    assertThatThrownBy(() -> recipe.last("CMD")).hasMessage("the recipe has no CMD");
  }

  @Test
  void readsAnExecFormsWordsAndRefusesAnythingElse() throws Exception {
    assertThat(ImageRecipe.exec("[\"java\", \"@/app/jvm.options\", \"-jar\", \"/app/a b.jar\"]"))
        .containsExactly("java", "@/app/jvm.options", "-jar", "/app/a b.jar");
    assertThatThrownBy(() -> ImageRecipe.exec("java -jar /app/a.jar"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not an exec form");
    assertThatThrownBy(() -> ImageRecipe.exec("[\"java\", 1]"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not an exec form");
  }

  @Test
  void stagesWhatTheRecipeCopiesWithFreePortsInItsYaml() throws Exception {
    Files.createDirectories(root.resolve("conf"));
    Files.writeString(
        root.resolve("conf/training.yaml"),
        "listen: {port: 17000}\nadmin: {port: 17020}\nsharedState: {members: [\"127.0.0.1:5701\"]}\n");
    Files.writeString(root.resolve("conf/jvm.options"), "-Xmx64m\n");
    ImageRecipe recipe =
        recipe(
            "COPY conf/training.yaml /app/training.yaml\nCOPY conf/jvm.options /app/jvm.options\n");
    AtomicInteger ports = new AtomicInteger(40000);

    recipe.stage(app, ports::incrementAndGet);

    String staged = Files.readString(app.resolve("training.yaml"));
    assertThat(staged)
        .doesNotContain("17000", "17020", "5701")
        .contains("port: 400", "127.0.0.1:400");
    assertThat(app.resolve("jvm.options")).hasContent("-Xmx64m");
  }

  @Test
  void stagingEmptiesWhatAnEarlierStagingLeft() throws Exception {
    Files.writeString(root.resolve("jvm.options"), "-Xmx64m\n");
    ImageRecipe recipe = recipe("COPY jvm.options /app/jvm.options\n");
    Files.createDirectories(app.resolve("old"));
    Files.writeString(app.resolve("old/toolgate-sidecar.jsa"), "an archive of another recipe");

    recipe.stage(app, () -> 40000);

    try (var left = Files.list(app)) {
      assertThat(left.map(p -> p.getFileName().toString())).containsExactly("jvm.options");
    }
  }

  @Test
  void mapsTheImagesPathsAndRunsOnlyJavaSteps() throws Exception {
    assertThat(ImageRecipe.local(List.of("java", "@/app/jvm.options", "-jar", "/app/x.jar"), app))
        .containsExactly("@" + app + "/jvm.options", "-jar", app + "/x.jar");
    ImageRecipe shell = recipe("RUN [\"sh\", \"-c\", \"rm -rf /\"]\n");

    assertThatThrownBy(() -> shell.runSteps(app, app, "step"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("only the recipe's java steps");
  }
}
