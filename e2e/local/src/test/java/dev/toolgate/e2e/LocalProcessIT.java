package dev.toolgate.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.e2e.support.LocalProcess;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the load benchmark reads of a process's memory from /proc: the resident set now and the most
 * it has held, which a reading now misses once a short-lived peak is given back.
 */
class LocalProcessIT {

  private static final int PEAK_MIB = 96;

  @TempDir Path work;

  @Test
  void peakResidentMemoryKeepsWhatAProcessHeldAfterItGaveItBack() throws Exception {
    try (LocalProcess process =
        LocalProcess.java(
            "touch-and-free",
            work,
            List.of(
                "-Xmx32m",
                "-cp",
                System.getProperty("java.class.path"),
                TouchAndFree.class.getName()))) {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> Files.readString(process.stdout()).contains("freed"));

      assertThat(process.peakResidentMib())
          .as("the peak, after the memory was given back")
          .isGreaterThanOrEqualTo(process.residentMib() + PEAK_MIB * 0.9);
      assertThat(process.residentMib())
          .as("resident now, without the memory given back")
          .isLessThan(process.peakResidentMib() - PEAK_MIB * 0.9)
          .isPositive();
    }
  }

  /**
   * Writes every page of PEAK_MIB of native memory, frees it, says so, then blocks on its stdin
   * until it is stopped.
   */
  public static final class TouchAndFree {
    public static void main(String[] args) throws Exception {
      Field field = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
      field.setAccessible(true);
      sun.misc.Unsafe unsafe = (sun.misc.Unsafe) field.get(null);
      long bytes = PEAK_MIB * 1024L * 1024L;
      // One allocation this large is its own mapping in glibc: freeing it unmaps it at once.
      long address = unsafe.allocateMemory(bytes);
      for (long offset = 0; offset < bytes; offset += 4096) {
        unsafe.putByte(address + offset, (byte) 1);
      }
      unsafe.freeMemory(address);
      System.out.println("freed");
      System.out.flush();
      while (System.in.read() >= 0) {
        // Nothing is sent on stdin: the read blocks until the test stops this process.
      }
    }
  }
}
