package dev.toolgate.policy.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CanonicalJsonTest {

  @Test
  void sortsKeysAtEveryLevelAndDropsWhiteSpace() {
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("z", 1);
    inner.put("a", List.of(true, 2.0, "x"));
    Map<String, Object> outer = new LinkedHashMap<>();
    outer.put("b", inner);
    outer.put("a", null);

    assertThat(CanonicalJson.of(outer))
        .isEqualTo("{\"a\":null,\"b\":{\"a\":[true,2,\"x\"],\"z\":1}}");
  }

  @Test
  void escapesQuotesBackslashesAndControlCharactersWhereverTheyAre() {
    assertThat(CanonicalJson.of("plain text")).isEqualTo("\"plain text\"");
    assertThat(CanonicalJson.of("say \"hi\"\\now")).isEqualTo("\"say \\\"hi\\\"\\\\now\"");
    assertThat(CanonicalJson.of("a\tb\nc\u0001")).isEqualTo("\"a\\tb\\nc\\u0001\"");
    assertThat(CanonicalJson.of("\"")).isEqualTo("\"\\\"\"");
    assertThat(CanonicalJson.of("")).isEqualTo("\"\"");
  }

  @Test
  void appendsTheSameTextItReturns() {
    Map<String, Object> args = Map.of("job_id", "j1", "note", "x".repeat(1000));
    StringBuilder out = new StringBuilder("prefix:");
    CanonicalJson.appendTo(args, out);

    assertThat(out.toString()).isEqualTo("prefix:" + CanonicalJson.of(args));
  }

  @Test
  void hashesTheSameTextTheSameWayOnEveryCall() {
    String first = Hashes.sha256("abc");
    assertThat(Hashes.sha256(new StringBuilder("abc"))).isEqualTo(first);
    assertThat(first).isEqualTo("ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
  }
}
