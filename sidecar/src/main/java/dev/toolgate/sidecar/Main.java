package dev.toolgate.sidecar;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.time.Clock;

/** {@code java -jar toolgate-sidecar.jar}: the sidecar and its commands ({@code --help}). */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line on the process's streams and clock. */
  static int run(String[] args) {
    return run(args, System.out, System.err, Clock.systemUTC());
  }

  /** Runs the command line; returns the exit code: 0 done, 1 failed, 2 a bad command line. */
  public static int run(String[] args, PrintStream out, PrintStream err, Clock clock) {
    PrintWriter outWriter = new PrintWriter(out, true);
    PrintWriter errWriter = new PrintWriter(err, true);
    try {
      return SidecarCommand.commandLine(clock, System.getenv(), outWriter, errWriter).execute(args);
    } finally {
      outWriter.flush();
      errWriter.flush();
    }
  }
}
