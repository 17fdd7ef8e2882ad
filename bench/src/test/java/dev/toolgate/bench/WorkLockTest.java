package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkLockTest {

  @TempDir Path work;

  @Test
  void refusesASecondRunNamingTheProcessThatHoldsTheDirectory() throws Exception {
    try (WorkLock first = WorkLock.acquire(work)) {
      assertThatThrownBy(() -> WorkLock.acquire(work))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("another load benchmark is running in " + work)
          .hasMessageContaining("pid " + ProcessHandle.current().pid());
    }
  }

  @Test
  void letsTheNextRunInOnceTheFirstHasReleasedIt() throws Exception {
    WorkLock.acquire(work).close();

    try (WorkLock next = WorkLock.acquire(work)) {
      assertThat(Files.readString(work.resolve(WorkLock.FILE)))
          .startsWith("pid " + ProcessHandle.current().pid() + ", started ");
    }
  }

  @Test
  void createsTheDirectoryOfAFreshCheckout() throws Exception {
    Path fresh = work.resolve("bench/target/load");

    try (WorkLock lock = WorkLock.acquire(fresh)) {
      assertThat(fresh.resolve(WorkLock.FILE)).isRegularFile();
    }
  }
}
