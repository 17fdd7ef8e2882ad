package dev.toolgate.sidecar.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Whatever a configuration file holds, the loader either binds it or refuses it with a {@link
 * ConfigException} naming what is wrong: no other exception escapes, whatever the edit (a line cut
 * or repeated, a value replaced by a number out of range, another type, YAML's anchors, aliases and
 * tags, text that is not UTF-8). The files start from the demo's rendered policy.
 */
class ConfigFuzzTest {

  private static final List<String> LINES;

  static {
    try {
      LINES = Files.readAllLines(Path.of("../e2e/demo/sidecar.yaml"));
    } catch (java.io.IOException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static final String[] VALUES = {
    "-1",
    "0",
    "2147483648",
    "99999999999999999999",
    "1.5",
    "null",
    "~",
    "true",
    "\"\"",
    "[]",
    "{}",
    "[",
    "{",
    "&a x",
    "*a",
    "!!binary aGk=",
    "!!java.lang.Object {}",
    "\"x\"",
    "'",
    "\"\\u0000\"",
    "NaN",
    ".inf",
    "0x10",
    "1e308",
    "\"" + "y".repeat(5000) + "\"",
    "{a: *a}",
    "- x"
  };

  private final ConfigLoader loader =
      new ConfigLoader(
          Clock.fixed(Instant.parse("2026-12-07T08:00:00Z"), ZoneOffset.UTC),
          ConfigTrust.unsignedFileAllowed(null));

  @Property(tries = 1500)
  void aConfigurationIsBoundOrRefusedWithItsReasonsNeverAnotherException(@ForAll long seed) {
    Random random = new Random(seed);
    List<String> lines = new ArrayList<>(LINES);
    for (int edits = 1 + random.nextInt(4); edits > 0 && !lines.isEmpty(); edits--) {
      int at = random.nextInt(lines.size());
      String line = lines.get(at);
      switch (random.nextInt(5)) {
        case 0 -> lines.remove(at);
        case 1 -> lines.add(at, line);
        case 2 -> {
          int colon = line.indexOf(':');
          if (colon >= 0) {
            lines.set(
                at, line.substring(0, colon + 1) + " " + VALUES[random.nextInt(VALUES.length)]);
          }
        }
        case 3 -> lines.set(at, " ".repeat(random.nextInt(4)) + line.strip());
        default -> lines.add(at, VALUES[random.nextInt(VALUES.length)]);
      }
    }
    byte[] bytes = String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
    if (random.nextInt(10) == 0) {
      bytes[random.nextInt(bytes.length)] = (byte) 0xFF;
    }

    try {
      assertThat(loader.parse(ConfigOrigin.FILE, "fuzz.yaml", bytes).config()).isNotNull();
    } catch (ConfigException refused) {
      assertThat(refused.getMessage()).startsWith("fuzz.yaml");
    }
  }
}
