package dev.toolgate.sidecar.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.toolgate.policy.config.SidecarConfig;
import dev.toolgate.policy.model.Policy;
import dev.toolgate.sidecar.config.RecordBinder.BindingException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.nodes.Node;

class RecordBinderTest {

  enum Colour {
    @JsonProperty("light_blue")
    LIGHT_BLUE,
    RED
  }

  enum Grade {
    LOW,
    HIGH;

    @JsonCreator
    public static Grade parse(String text) {
      if (text.equals("l")) {
        return LOW;
      }
      if (text.equals("h")) {
        return HIGH;
      }
      throw new IllegalArgumentException("no grade '" + text + "'; known: l, h");
    }
  }

  record Inner(Integer count, Colour colour) {
    Inner {
      count = count == null ? 3 : count;
      if (count < 0) {
        throw new IllegalArgumentException("count must be >= 0, was " + count);
      }
    }
  }

  record Outer(
      String name,
      boolean enabled,
      long size,
      Double ratio,
      @JsonProperty("nested") Inner inner,
      List<Inner> items,
      List<Grade> grades) {}

  private static Node yaml(String text) {
    return new Compose(RecordBinder.settings("test")).composeString(text).orElseThrow();
  }

  private static String refusal(String text) {
    try {
      RecordBinder.bind(yaml(text), Outer.class);
    } catch (BindingException e) {
      return e.getMessage();
    }
    throw new AssertionError("expected the binder to refuse: " + text);
  }

  @Test
  void bindsNestedRecordsListsAndEnumsByTheirWireNames() throws Exception {
    Outer outer =
        RecordBinder.bind(
            yaml(
                """
        name: api
        enabled: true
        size: 12
        ratio: 0.5
        nested: {count: 2, colour: light_blue}
        items: [{colour: RED}, {count: 0}]
        grades: [l, h]
        """),
            Outer.class);

    assertThat(outer)
        .isEqualTo(
            new Outer(
                "api",
                true,
                12,
                0.5,
                new Inner(2, Colour.LIGHT_BLUE),
                List.of(new Inner(3, Colour.RED), new Inner(0, null)),
                List.of(Grade.LOW, Grade.HIGH)));
  }

  @Test
  void leavesAbsentFieldsToTheRecordsDefaultsAndAbsentPrimitivesAtZero() throws Exception {
    Outer outer = RecordBinder.bind(yaml("nested: {}\nitems: ~\n"), Outer.class);

    assertThat(outer).isEqualTo(new Outer(null, false, 0, null, new Inner(null, null), null, null));
    assertThat(outer.inner().count()).as("the record's own default").isEqualTo(3);
  }

  @Test
  void readsQuotedNumbersAndBooleansAndNumbersAsText() throws Exception {
    Outer outer =
        RecordBinder.bind(yaml("name: 42\nenabled: \"TRUE\"\nsize: \"7\"\n"), Outer.class);

    assertThat(outer.name()).isEqualTo("42");
    assertThat(outer.enabled()).isTrue();
    assertThat(outer.size()).isEqualTo(7);
  }

  @Test
  void namesAnUnknownFieldItsParentAndTheKnownFields() {
    assertThat(refusal("nested: {count: 1, colur: red}\n"))
        .isEqualTo("nested: unknown field 'colur'; known fields: [colour, count]");
    assertThat(refusal("inner: {}\n"))
        .as("a renamed component is known by its file name only")
        .isEqualTo(
            "unknown field 'inner'; known fields: [enabled, grades, items, name, nested, ratio, size]");
  }

  @Test
  void refusesAFieldGivenTwiceNamingItsLine() {
    assertThat(refusal("name: a\nsize: 1\nname: b\n"))
        .isEqualTo("(top level): field 'name' is given twice (line 3, column 1)");
  }

  @Test
  void refusesFractionsAndOutOfRangeValuesForWholeNumbers() {
    assertThat(refusal("size: 1.5\n")).isEqualTo("size: '1.5' is not a valid whole number");
    assertThat(refusal("nested: {count: 3000000000}\n"))
        .isEqualTo("nested.count: '3000000000' is not a valid whole number");
    assertThat(refusal("ratio: half\n")).isEqualTo("ratio: 'half' is not a valid number");
    assertThat(refusal("enabled: yes\n")).isEqualTo("enabled: 'yes' is not a valid boolean");
  }

  @Test
  void refusesNullForAPrimitive() {
    assertThat(refusal("enabled: ~\n"))
        .isEqualTo("enabled: expected a boolean, found null (line 1, column 10)");
  }

  @Test
  void listsTheAcceptedValuesOfABadEnumAndRefusesANumberForIt() {
    assertThat(refusal("nested: {colour: blue}\n"))
        .isEqualTo("nested.colour: 'blue' is not a valid Colour; accepted: light_blue, RED");
    assertThat(refusal("nested: {colour: 1}\n"))
        .isEqualTo("nested.colour: '1' is not a valid Colour; accepted: light_blue, RED");
  }

  @Test
  void reportsAnEnumCreatorsRefusalAtTheElementsPath() {
    assertThat(refusal("grades: [h, x]\n")).isEqualTo("grades[1]: no grade 'x'; known: l, h");
  }

  @Test
  void reportsARecordConstructorsRefusalAtTheRecordsPath() {
    assertThat(refusal("items: [{count: 1}, {count: -2}]\n"))
        .isEqualTo("items[1]: count must be >= 0, was -2");
  }

  @Test
  void namesWhatItFoundWhereAnotherShapeWasExpected() {
    assertThat(refusal("name: {first: a}\n"))
        .isEqualTo("name: expected text, found a mapping (line 1, column 7)");
    assertThat(refusal("items: {count: 1}\n"))
        .isEqualTo("items: expected a list, found a mapping (line 1, column 8)");
    assertThat(refusal("nested: [1]\n"))
        .isEqualTo("nested: expected a mapping of fields, found a list (line 1, column 9)");
    assertThat(refusal("grades: [[l]]\n"))
        .startsWith("grades[0]: expected one of LOW, HIGH, found a list");
  }

  @Test
  void readsEveryComponentTypeOfTheConfigurationFile() {
    Set<Type> supported =
        Set.of(
            String.class,
            Integer.class,
            int.class,
            Long.class,
            long.class,
            Double.class,
            double.class,
            Boolean.class,
            boolean.class);
    Deque<Class<?>> records = new ArrayDeque<>(List.of(SidecarConfig.class, Policy.class));
    Set<Class<?>> seen = new HashSet<>();
    while (!records.isEmpty()) {
      Class<?> record = records.pop();
      if (!seen.add(record)) {
        continue;
      }
      for (RecordComponent component : record.getRecordComponents()) {
        Type type = component.getGenericType();
        if (type instanceof ParameterizedType list) {
          assertThat(list.getRawType()).as(component.toString()).isEqualTo(List.class);
          type = list.getActualTypeArguments()[0];
        }
        Class<?> raw = (Class<?>) type;
        if (raw.isRecord()) {
          records.push(raw);
        } else {
          assertThat(raw.isEnum() || supported.contains(raw))
              .as(
                  "%s.%s is of a type the binder reads",
                  record.getSimpleName(), component.getName())
              .isTrue();
        }
      }
    }
    assertThat(seen)
        .as("the walk reached the policy's rules")
        .anyMatch(c -> c.getSimpleName().equals("ToolRule"));
  }

  @Test
  void refusesABindingOfAScalarDocument() {
    assertThatThrownBy(() -> RecordBinder.bind(yaml("just text"), Outer.class))
        .isInstanceOf(BindingException.class)
        .hasMessage(
            "(top level): expected a mapping of fields, found 'just text' (line 1, column 1)");
  }
}
