package dev.toolgate.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The suite's report: per case, what the seed expects, what was observed and the attempt events the
 * sidecars wrote meanwhile. {@link #check} records a case and fails it on any difference.
 */
final class Evidence {

  record Case(
      String id,
      String source,
      Map<String, Object> expected,
      Map<String, Object> observed,
      List<JsonNode> events,
      boolean passed) {}

  private final List<Case> cases = new ArrayList<>();
  private final Map<String, Object> facts = new LinkedHashMap<>();

  void fact(String name, Object value) {
    facts.put(name, value);
  }

  /** Records the case, then fails unless every expected value was observed. */
  void check(
      String id,
      String source,
      Map<String, Object> expected,
      Map<String, Object> observed,
      List<JsonNode> events) {
    List<String> differences = new ArrayList<>();
    expected.forEach(
        (k, v) -> {
          if (!Objects.equals(String.valueOf(v), String.valueOf(observed.get(k)))) {
            differences.add(k + ": expected " + v + ", observed " + observed.get(k));
          }
        });
    cases.add(new Case(id, source, expected, observed, events, differences.isEmpty()));
    if (!differences.isEmpty()) {
      throw new AssertionError(
          id + " differs from what " + source + " expects: " + String.join("; ", differences));
    }
  }

  void write(Path dir) throws IOException {
    Files.createDirectories(dir);
    LocalStack.JSON
        .copy()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .writeValue(dir.resolve("report.json").toFile(), Map.of("facts", facts, "cases", cases));
    StringBuilder md = new StringBuilder("# Toolgate end-to-end evidence (e2e/local)\n\n");
    facts.forEach((k, v) -> md.append("- ").append(k).append(": ").append(v).append('\n'));
    md.append("\n| case | source | result |\n| --- | --- | --- |\n");
    for (Case c : cases) {
      md.append("| ")
          .append(c.id())
          .append(" | ")
          .append(c.source())
          .append(" | ")
          .append(c.passed() ? "as expected" : "**DIFFERS**")
          .append(" |\n");
    }
    for (Case c : cases) {
      md.append("\n## ")
          .append(c.id())
          .append(" (")
          .append(c.source())
          .append(")\n\n| | expected | observed |\n| --- | --- | --- |\n");
      for (String key : c.observed().keySet()) {
        md.append("| ")
            .append(key)
            .append(" | ")
            .append(c.expected().getOrDefault(key, ""))
            .append(" | ")
            .append(c.observed().get(key))
            .append(" |\n");
      }
      md.append("\nAttempt events (").append(c.events().size()).append("):\n\n```\n");
      c.events().forEach(e -> md.append(e).append('\n'));
      md.append("```\n");
    }
    Files.writeString(dir.resolve("report.md"), md.toString());
  }
}
