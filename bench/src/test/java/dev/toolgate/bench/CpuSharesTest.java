package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.toolgate.e2e.support.LocalProcess;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CpuSharesTest {

  @Test
  void theMachineIsBusyForAllButItsIdleIoWaitAndStolenTicks() {
    CpuShares.Machine m = CpuShares.Machine.parse("cpu  100 5 50 800 20 0 10 3 0 0");

    assertThat(m.total()).isEqualTo(988);
    assertThat(m.busy()).isEqualTo(165);
    assertThat(m.stolen()).isEqualTo(3);
  }

  @Test
  void theStolenShareIsTheHypervisorsPartOfAllTheTurnsTicks_leftOutOfTheCpuPerCall() {
    CpuShares shares = new CpuShares();
    assertThat(shares.machineStolen()).as("before any turn").isNaN();

    shares.add(0, 0, 1.0, CpuShares.Machine.parse("cpu 100 0 20 60 0 0 0 20 0 0"));
    shares.add(0, 0, 1.0, new CpuShares.Machine(180, 0, 200));

    assertThat(shares.machineStolen()).isCloseTo(0.05, within(1e-9));
    assertThat(shares.machineBusy()).isCloseTo(0.75, within(1e-9));
    // 300 busy ticks of 10 ms over 1,000 calls: the 20 stolen are not the calls' cost.
    assertThat(shares.machineMicrosPerCall(1_000)).isCloseTo(3_000.0, within(1e-9));
  }

  @Test
  void refusesALineThatIsNotTheMachinesCpuLine() {
    assertThatThrownBy(() -> CpuShares.Machine.parse("cpu0 1 2 3 4 5 6 7 8"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cpu0 1 2");
    assertThatThrownBy(() -> CpuShares.Machine.parse("cpu 1 2 3"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theBusiestThreadIsTheOneThatRanMostDuringTheTurn_aNewThreadCountingFromZero() {
    assertThat(CpuShares.busiest(Map.of(1L, 10L, 2L, 100L), Map.of(1L, 60L, 2L, 120L)))
        .isEqualTo(50);
    assertThat(CpuShares.busiest(Map.of(1L, 10L), Map.of(1L, 12L, 3L, 40L))).isEqualTo(40);
    assertThat(CpuShares.busiest(Map.of(), Map.of())).isZero();
  }

  @Test
  void theProcessRanWhatAllItsThreadsRan_aNewThreadCountingFromZero() {
    assertThat(CpuShares.ran(Map.of(1L, 10L, 2L, 100L), Map.of(1L, 60L, 2L, 120L))).isEqualTo(70);
    assertThat(CpuShares.ran(Map.of(1L, 10L), Map.of(1L, 12L, 3L, 40L))).isEqualTo(42);
    assertThat(CpuShares.ran(Map.of(), Map.of())).isZero();
  }

  @Test
  void perCallTheTurnsCpuIsDividedByTheirCalls() {
    CpuShares shares = new CpuShares();
    assertThat(shares.processMicrosPerCall(1_000)).as("before any turn").isNaN();
    assertThat(shares.machineMicrosPerCall(1_000)).as("before any turn").isNaN();

    shares.add(40, 50, 1.0, new CpuShares.Machine(150, 0, 200));
    shares.add(20, 30, 1.0, new CpuShares.Machine(190, 0, 200));

    // 80 ticks of 10 ms and 340 busy ticks over 1,000 calls.
    assertThat(shares.processMicrosPerCall(1_000)).isCloseTo(800.0, within(1e-9));
    assertThat(shares.machineMicrosPerCall(1_000)).isCloseTo(3_400.0, within(1e-9));
    assertThat(shares.processMicrosPerCall(0)).as("no call").isNaN();
    assertThat(shares.machineMicrosPerCall(0)).as("no call").isNaN();
  }

  @Test
  void aTargetWhoseThreadsCannotBeReadHasNoCpuPerCall() {
    CpuShares shares = new CpuShares();
    shares.end(CpuShares.start(List.of(Long.MAX_VALUE)), List.of(Long.MAX_VALUE));

    assertThat(shares.processMicrosPerCall(1_000)).isNaN();
  }

  @Test
  void sharesAreTakenOverAllTheTurnsTogether() {
    CpuShares shares = new CpuShares();
    assertThat(shares.busiestThread()).isNaN();
    assertThat(shares.machineBusy()).isNaN();

    shares.add(60, 60, 1.0, new CpuShares.Machine(150, 0, 200));
    shares.add(40, 40, 1.0, new CpuShares.Machine(190, 0, 200));

    assertThat(shares.busiestThread()).isCloseTo(0.5, within(1e-9));
    assertThat(shares.machineBusy()).isCloseTo(0.85, within(1e-9));
  }

  @Test
  void readsThisProcesssThreadsAndTheMachineFromProc() {
    long self = ProcessHandle.current().pid();
    CpuShares.Turn turn = CpuShares.start(List.of(self));
    assertThat(turn.threads()).as("this JVM's threads").hasSizeGreaterThan(1);
    assertThat(turn.machine().total()).isPositive();

    double spun = 0;
    long until = System.nanoTime() + 300_000_000L;
    while (System.nanoTime() < until) {
      spun += BusyLoop.spin();
    }
    CpuShares shares = new CpuShares();
    shares.end(turn, List.of(self));

    assertThat(spun).isPositive();
    // One core at most, but read in clock ticks: a tick or two more than the wall time is the
    // count's grain.
    double oneCoreAndTwoTicks = 1 + 2 / (LocalProcess.TICKS_PER_SECOND * 0.3);
    assertThat(shares.busiestThread())
        .as("the spinning thread, in cores")
        .isBetween(0.3, oneCoreAndTwoTicks);
    assertThat(shares.machineBusy()).isBetween(0.0, 1.0);
    assertThat(shares.processMicrosPerCall(1))
        .as("all the threads' run, as one call in µs: the spinning one's at least")
        .isGreaterThanOrEqualTo(shares.busiestThread() * 0.3e6 * 0.9);
    assertThat(shares.machineMicrosPerCall(1))
        .as("the machine ran this process at least (ticks read apart)")
        .isGreaterThanOrEqualTo(shares.processMicrosPerCall(1) * 0.5);
  }

  @Test
  void aProcessThatIsGoneHasNoThreads() {
    assertThat(CpuShares.threadTicks(List.of(Long.MAX_VALUE))).isEmpty();
  }
}
