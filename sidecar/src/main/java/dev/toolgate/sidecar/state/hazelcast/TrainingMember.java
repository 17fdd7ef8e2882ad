package dev.toolgate.sidecar.state.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import dev.toolgate.policy.config.SharedStateOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A throwaway Hazelcast member in a child JVM, for a client-mode run that has no cluster: the
 * image's client-mode training run records a class-data archive of what a sidecar in a cluster
 * loads, and a member in the same JVM would put the member's classes in it instead. The child
 * serves on loopback and exits when its parent closes its stdin or dies.
 */
public final class TrainingMember implements AutoCloseable {

  static final String READY = "toolgate training member: ready";

  private final Process process;

  private TrainingMember(Process process) {
    this.process = process;
  }

  /**
   * Starts the child and returns once its member is up, or throws after {@code timeout}.
   *
   * @param address the member's {@code 127.0.0.1:port}, the client configuration's first member
   */
  public static TrainingMember start(String address, String clusterName, Duration timeout)
      throws IOException, InterruptedException {
    return start(System.getProperty("java.class.path"), address, clusterName, timeout);
  }

  /** The same, with the child's class path given (a test runs the sidecar's jar). */
  static TrainingMember start(
      String classPath, String address, String clusterName, Duration timeout)
      throws IOException, InterruptedException {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // Small and quick: C1 only, a small heap; it lives for the few seconds of the run.
    Process child =
        new ProcessBuilder(
                List.of(
                    java,
                    "-XX:TieredStopAtLevel=1",
                    "-XX:+UseSerialGC",
                    "-Xmx128m",
                    "-cp",
                    classPath,
                    TrainingMember.class.getName(),
                    address,
                    clusterName))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    TrainingMember member = new TrainingMember(child);
    BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<Boolean> ready = new CompletableFuture<>();
    // Reads the child's stdout to its end, so that the child never blocks on a full pipe.
    Thread reader =
        new Thread(
            () -> {
              try {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                  if (line.equals(READY)) {
                    ready.complete(true);
                  }
                }
              } catch (IOException e) {
                // the child is gone: answered below
              }
              ready.complete(false);
            },
            "toolgate-training-member");
    reader.setDaemon(true);
    reader.start();
    try {
      if (!ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        member.close();
        throw new IOException(
            "the training member at "
                + address
                + " exited with "
                + child.waitFor()
                + " before it was ready (its log is above)");
      }
    } catch (TimeoutException | ExecutionException e) {
      member.close();
      throw new IOException(
          "the training member at "
              + address
              + " was not ready within "
              + timeout.toSeconds()
              + " s");
    }
    return member;
  }

  /** Asks the child to stop (its stdin closes), and kills it if it has not within 10 s. */
  @Override
  public void close() throws InterruptedException {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      process.destroy();
    }
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** The child: {@code TrainingMember 127.0.0.1:PORT CLUSTER_NAME}. */
  public static void main(String[] args) throws IOException {
    if (args.length != 2 || args[0].lastIndexOf(':') < 1) {
      // A command's usage error, on stderr: the parent passes it through to its own log.
      System.err.println("usage: TrainingMember HOST:PORT CLUSTER_NAME");
      System.exit(2);
    }
    int port = Integer.parseInt(args[0].substring(args[0].lastIndexOf(':') + 1));
    HazelcastInstance member =
        SharedState.start(
            new SharedStateOptions(
                SharedStateOptions.Mode.EMBEDDED,
                args[1],
                List.of(args[0]),
                null,
                port,
                null,
                null));
    // The handshake, not a log line: start() waits for this line on the child's stdout.
    System.out.println(READY);
    System.out.flush();
    // Until the parent closes our stdin, or dies (which closes it too).
    while (System.in.read() >= 0) {
      // nothing to read: the parent never writes
    }
    member.shutdown();
    System.exit(0);
  }
}
