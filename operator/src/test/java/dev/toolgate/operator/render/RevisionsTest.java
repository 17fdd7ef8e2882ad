package dev.toolgate.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class RevisionsTest {

  private static List<Revisions.Existing> existing(String... hashes) {
    return LongStream.range(0, hashes.length)
        .mapToObj(i -> new Revisions.Existing(i + 1, hashes[(int) i]))
        .toList();
  }

  @Test
  void aFirstSpecMakesRevisionOne() {
    Revisions.Plan plan = Revisions.plan("h1", List.of(), null, 0);

    assertThat(plan.create()).isEqualTo(1);
    assertThat(plan.active()).isEqualTo(1);
  }

  @Test
  void anUnchangedSpecMakesNoRevision() {
    Revisions.Plan plan = Revisions.plan("h2", existing("h1", "h2"), null, 2);

    assertThat(plan.create()).isZero();
    assertThat(plan.active()).isEqualTo(2);
    assertThat(plan.reason()).isEqualTo("spec unchanged");
  }

  @Test
  void goingBackToAnOlderSpecIsANewRevision() {
    Revisions.Plan plan = Revisions.plan("h1", existing("h1", "h2"), null, 2);

    assertThat(plan.create()).isEqualTo(3);
    assertThat(plan.previous()).isEqualTo(2);
  }

  @Test
  void aRollbackActivatesAnExistingRevisionAndRefusesAMissingOne() {
    assertThat(Revisions.plan("h2", existing("h1", "h2"), 1L, 2).active()).isEqualTo(1);
    assertThat(Revisions.plan("h2", existing("h1", "h2"), 5L, 2).error())
        .contains("does not exist");
  }

  @Test
  void prunesBeyondTenButNeverTheActiveRevision() {
    String[] hashes = LongStream.rangeClosed(1, 10).mapToObj(i -> "h" + i).toArray(String[]::new);

    Revisions.Plan plan = Revisions.plan("h11", existing(hashes), 1L, 1);

    assertThat(plan.create()).isEqualTo(11);
    assertThat(plan.active()).isEqualTo(1);
    assertThat(plan.prune()).isEmpty();
    assertThat(Revisions.plan("h11", existing(hashes), null, 10).prune()).containsExactly(1L);
  }
}
