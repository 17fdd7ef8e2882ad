package dev.toolgate.state;

import java.io.PrintStream;
import java.io.PrintWriter;
import picocli.CommandLine;

/** {@code java -jar toolgate-state.jar}: one member of the state service ({@code --help}). */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command line; returns the exit code: 0 done, 1 failed, 2 a bad command line. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    PrintWriter outWriter = new PrintWriter(out, true);
    PrintWriter errWriter = new PrintWriter(err, true);
    return commandLine(outWriter, errWriter).execute(args);
  }

  static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    return new CommandLine(new StateCommand()).setUsageHelpWidth(100).setOut(out).setErr(err);
  }
}
