package dev.toolgate.operator.sign;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PublicationTest {

  @Test
  void theFirstPublicationIsNumberedByTheClock() {
    assertThat(Publication.next(null, 1_000, 1, 1)).isEqualTo(new Publication(1_000, false));
  }

  @Test
  void aClockBehindTheLastPublicationStillNumbersAfterIt() {
    assertThat(Publication.next(5_000L, 1_000, 2, 2).sequence()).isEqualTo(5_001);
    assertThat(Publication.next(5_000L, 9_000, 2, 2).sequence()).isEqualTo(9_000);
  }

  @Test
  void anActiveRevisionOlderThanTheNewestIsARollback() {
    assertThat(Publication.next(5_000L, 6_000, 1, 3).rollback()).isTrue();
    assertThat(Publication.next(5_000L, 6_000, 3, 3).rollback()).isFalse();
  }
}
