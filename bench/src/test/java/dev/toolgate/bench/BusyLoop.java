package dev.toolgate.bench;

/**
 * A program for ProfilerIT to profile (and CPU for CpuSharesTest to measure): a few hundred
 * milliseconds of CPU in a method of its own.
 */
public final class BusyLoop {

  private BusyLoop() {}

  public static void main(String[] args) {
    long end = System.nanoTime() + 500_000_000L;
    double sum = 0;
    while (System.nanoTime() < end) {
      sum += spin();
    }
    System.out.println(sum > 0 ? "done" : "zero");
  }

  static double spin() {
    double x = 0;
    for (int i = 1; i < 10_000; i++) {
      x += Math.sqrt(i);
    }
    return x;
  }
}
