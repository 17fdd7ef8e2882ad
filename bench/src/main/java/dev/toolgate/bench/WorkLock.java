package dev.toolgate.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * One load benchmark at a time in a work directory. Two runs on one machine load each other's
 * cores, and the second rewrites the configurations the first's sidecars reload (its backend and
 * Hazelcast member ports, which die with it): the first run's sidecars then open their circuits and
 * its tables read nothing of what they are named for.
 *
 * <p>An operating-system lock on {@code run.lock} in the directory, held until {@link #close()} or
 * the process's exit (a killed run leaves no stale lock). The file says which process holds it.
 */
final class WorkLock implements AutoCloseable {

  static final String FILE = "run.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private WorkLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the directory's lock, creating the directory if needed.
   *
   * @throws IllegalStateException if another run holds it, naming that run's process and start
   */
  static WorkLock acquire(Path directory) throws IOException {
    Files.createDirectories(directory);
    Path file = directory.resolve(FILE);
    FileChannel channel =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null; // held by this very process
    }
    if (lock == null) {
      channel.close();
      String holder = Files.readString(file, StandardCharsets.UTF_8).strip();
      throw new IllegalStateException(
          "another load benchmark is running in "
              + directory
              + (holder.isEmpty() ? "" : " (" + holder + ")")
              + ": two runs on one machine load each other's cores, and this one would rewrite the"
              + " configurations its sidecars reload. Wait for it to end, or stop it");
    }
    channel.truncate(0);
    channel.write(
        ByteBuffer.wrap(
            ("pid " + ProcessHandle.current().pid() + ", started " + Instant.now() + "\n")
                .getBytes(StandardCharsets.UTF_8)),
        0);
    channel.force(false);
    return new WorkLock(channel, lock);
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
