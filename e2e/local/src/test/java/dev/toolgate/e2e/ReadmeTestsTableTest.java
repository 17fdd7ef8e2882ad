package dev.toolgate.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The README's "Tests" table and the test classes of the repository name the same classes. */
class ReadmeTestsTableTest {

  private static final Path ROOT = Path.of(System.getProperty("toolgate.root", "../..")).toAbsolutePath().normalize();
  private static final Pattern NAME = Pattern.compile("`([A-Z][A-Za-z0-9]*(?:Test|IT))`");

  @Test
  void namesEveryTestClassOfTheRepository() throws IOException {
    Set<String> unnamed = new TreeSet<>(testClasses());
    unnamed.removeAll(tableNames());
    assertThat(unnamed).as("test classes the README's Tests table does not name").isEmpty();
  }

  @Test
  void namesNoTestClassThatDoesNotExist() throws IOException {
    Set<String> stale = new TreeSet<>(tableNames());
    stale.removeAll(testClasses());
    assertThat(stale).as("names in the README's Tests table that are no test class").isEmpty();
  }

  /** The backquoted class names in the README between "## Tests" and the next second-level heading. */
  private static Set<String> tableNames() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"));
    int start = readme.indexOf("\n## Tests\n");
    assertThat(start).as("README.md has a Tests section").isPositive();
    int end = readme.indexOf("\n## ", start + 1);
    Matcher m = NAME.matcher(readme.substring(start, end < 0 ? readme.length() : end));
    Set<String> names = new TreeSet<>();
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  /** Every {@code *Test} and {@code *IT} class under a module's {@code src/test/java}. */
  private static Set<String> testClasses() throws IOException {
    try (Stream<Path> files = Files.walk(ROOT)) {
      Set<String> classes = files
          .filter(p -> p.toString().contains("/src/test/java/") && !p.toString().contains("/target/"))
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith("Test.java") || n.endsWith("IT.java"))
          .map(n -> n.substring(0, n.length() - ".java".length()))
          .collect(Collectors.toCollection(TreeSet::new));
      assertThat(classes).as("test classes found under " + ROOT).isNotEmpty();
      return classes;
    }
  }
}
