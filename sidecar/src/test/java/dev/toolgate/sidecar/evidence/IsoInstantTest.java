package dev.toolgate.sidecar.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

class IsoInstantTest {

  @Property(tries = 2000)
  void writesWhatInstantToStringWrites(@ForAll("instants") Instant at) {
    assertThat(IsoInstant.format(at)).isEqualTo(at.toString());
  }

  @Property(tries = 500)
  void writesEveryInstantOfOneSecondFromItsKeptPrefix(@ForAll("nanos") int nano) {
    Instant second = Instant.parse("2026-11-30T18:02:00Z");
    IsoInstant.format(second);

    Instant at = second.plusNanos(nano);

    assertThat(IsoInstant.format(at)).isEqualTo(at.toString());
  }

  @Example
  void leavesTheFractionOutWhenItIsZeroAndWritesItInGroupsOfThree() {
    assertThat(IsoInstant.format(Instant.parse("2026-11-30T18:02:00Z")))
        .isEqualTo("2026-11-30T18:02:00Z");
    assertThat(IsoInstant.format(Instant.parse("2026-11-30T18:02:00.120Z")))
        .isEqualTo("2026-11-30T18:02:00.120Z");
    assertThat(IsoInstant.format(Instant.parse("2026-11-30T18:02:00.000001Z")))
        .isEqualTo("2026-11-30T18:02:00.000001Z");
    assertThat(IsoInstant.format(Instant.parse("2026-11-30T18:02:00.000000001Z")))
        .isEqualTo("2026-11-30T18:02:00.000000001Z");
  }

  @Example
  void writesYearsOutsideFourDigitsAsInstantToStringDoes() {
    assertThat(IsoInstant.format(Instant.MAX)).isEqualTo(Instant.MAX.toString());
    assertThat(IsoInstant.format(Instant.MIN)).isEqualTo(Instant.MIN.toString());
    Instant lastOfYear9999 = Instant.parse("9999-12-31T23:59:59.999Z");
    assertThat(IsoInstant.format(lastOfYear9999)).isEqualTo("9999-12-31T23:59:59.999Z");
    assertThat(IsoInstant.format(lastOfYear9999.plusSeconds(1)))
        .isEqualTo("+10000-01-01T00:00:00.999Z");
  }

  @Provide
  Arbitrary<Instant> instants() {
    Arbitrary<Long> fourDigitYears =
        Arbitraries.longs()
            .between(
                Instant.parse("0000-01-01T00:00:00Z").getEpochSecond(),
                Instant.parse("9999-12-31T23:59:59Z").getEpochSecond());
    Arbitrary<Long> anyYear =
        Arbitraries.longs().between(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond());
    Arbitrary<Long> seconds =
        Arbitraries.frequencyOf(Tuple.of(4, fourDigitYears), Tuple.of(1, anyYear))
            .injectDuplicates(0.3);
    return Combinators.combine(seconds, nanos()).as(Instant::ofEpochSecond);
  }

  @Provide
  Arbitrary<Integer> nanos() {
    Arbitrary<Integer> any = Arbitraries.integers().between(0, 999_999_999);
    Arbitrary<Integer> millis = Arbitraries.integers().between(0, 999).map(m -> m * 1_000_000);
    Arbitrary<Integer> micros = Arbitraries.integers().between(0, 999_999).map(u -> u * 1_000);
    return Arbitraries.oneOf(any, millis, micros);
  }
}
