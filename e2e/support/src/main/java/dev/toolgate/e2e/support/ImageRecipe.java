package dev.toolgate.e2e.support;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A Dockerfile's instructions, one per line (the recipes here have no continuation lines), and what
 * can be done with them without a container engine: stage the files it copies into {@code /app} in
 * a directory of this machine, and run its {@code RUN} steps (the sidecar's class-data sharing
 * training runs) there. The image tests and the benchmark both train the archives this way, so the
 * recipe stays the one source of how the image records them.
 */
public final class ImageRecipe {

  private static final String APP = "/app/";
  private static final JsonFactory JSON = new JsonFactory();
  private static final List<String> FIXED_PORTS = List.of("17000", "17020", "5701");

  /** Where a free loopback port comes from. */
  @FunctionalInterface
  public interface FreePorts {
    int next() throws IOException;
  }

  private final Path root;
  private final List<String> lines;

  private ImageRecipe(Path root, List<String> lines) {
    this.root = root;
    this.lines = lines;
  }

  /**
   * The recipe at {@code dockerfile}, relative to {@code root}, the checkout its COPY sources are
   * in.
   */
  public static ImageRecipe of(Path root, String dockerfile) throws IOException {
    List<String> lines = new ArrayList<>();
    for (String line : Files.readAllLines(root.resolve(dockerfile))) {
      if (!line.isBlank() && !line.startsWith("#")) {
        lines.add(line.strip());
      }
    }
    return new ImageRecipe(root, List.copyOf(lines));
  }

  /** The arguments of every {@code instruction}, in order. */
  public List<String> all(String instruction) {
    return lines.stream()
        .filter(l -> l.startsWith(instruction + " "))
        .map(l -> l.substring(instruction.length() + 1))
        .toList();
  }

  public String last(String instruction) {
    List<String> found = all(instruction);
    if (found.isEmpty()) {
      throw new IllegalStateException("the recipe has no " + instruction);
    }
    return found.get(found.size() - 1);
  }

  /**
   * An instruction's exec form ({@code ["java", "-jar", ...]}) as its words; the shell form is
   * refused.
   */
  public static List<String> exec(String json) throws IOException {
    List<String> words = new ArrayList<>();
    try (JsonParser parser = JSON.createParser(json)) {
      JsonToken token = parser.nextToken();
      if (token != JsonToken.START_ARRAY) {
        throw notExecForm(json);
      }
      for (token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
        if (token != JsonToken.VALUE_STRING) {
          throw notExecForm(json);
        }
        words.add(parser.getText());
      }
    } catch (JsonProcessingException e) {
      throw notExecForm(json);
    }
    return words;
  }

  private static IllegalArgumentException notExecForm(String json) {
    return new IllegalArgumentException("not an exec form (a JSON array of strings): " + json);
  }

  /**
   * Copies what the recipe copies into {@code /app} to {@code app}, emptied first (an archive an
   * earlier staging recorded must not pass for this recipe's); in the YAML files among them the
   * fixed ports (17000, 17020, 5701) become free ones, since a test or a benchmark never binds a
   * fixed port.
   */
  public void stage(Path app, FreePorts freePorts) throws IOException {
    FreshDirectory.create(app);
    for (String copy : all("COPY")) {
      String[] parts = copy.split("\\s+");
      Path staged = app.resolve(Path.of(parts[1]).getFileName());
      Files.copy(root.resolve(parts[0]), staged);
      if (staged.toString().endsWith(".yaml")) {
        String yaml = Files.readString(staged);
        for (String port : FIXED_PORTS) {
          yaml =
              yaml.replace("127.0.0.1:" + port, "127.0.0.1:" + freePorts.next())
                  .replaceAll("port: " + Pattern.quote(port) + "\\b", "port: " + freePorts.next());
        }
        Files.writeString(staged, yaml);
      }
    }
  }

  /** A command of the image with its {@code /app} paths mapped to {@code app}, without "java". */
  public static List<String> local(List<String> command, Path app) {
    List<String> mapped = new ArrayList<>();
    for (String arg : command.subList(1, command.size())) {
      mapped.add(arg.replace(APP, app + "/"));
    }
    return mapped;
  }

  /**
   * Runs each {@code RUN} step in the staged {@code app}, in order; their output goes to {@code
   * logs}.
   */
  public void runSteps(Path app, Path logs, String name) throws IOException, InterruptedException {
    List<String> steps = all("RUN");
    for (int i = 0; i < steps.size(); i++) {
      List<String> command = exec(steps.get(i));
      if (!command.get(0).equals("java")) {
        throw new IllegalStateException(
            "only the recipe's java steps can run outside an image: " + steps.get(i));
      }
      LocalProcess.runJava(logs, name + "-" + i, local(command, app));
    }
  }
}
