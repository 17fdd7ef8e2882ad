package dev.toolgate.operator;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code java -jar toolgate-operator.jar render|run}. */
@Command(
    name = "toolgate-operator",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Turns ToolPolicies into sidecar configuration, and injects the sidecar.",
    subcommands = {RenderCommand.class, RunCommand.class, KeygenCommand.class, SignCommand.class})
public final class Main implements Callable<Integer> {

  @Spec CommandSpec spec;

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command line; returns the exit code: 0 done, 1 failed, 2 a bad command line. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    PrintWriter outWriter = new PrintWriter(out, true);
    PrintWriter errWriter = new PrintWriter(err, true);
    try {
      return new CommandLine(new Main()).setOut(outWriter).setErr(errWriter).execute(args);
    } finally {
      outWriter.flush();
      errWriter.flush();
    }
  }

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "say which: render or run");
  }

  /** The jar's version, from its manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"toolgate-operator " + (v == null ? "dev" : v)};
    }
  }
}
