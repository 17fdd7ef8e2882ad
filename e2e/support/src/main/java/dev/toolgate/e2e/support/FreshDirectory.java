package dev.toolgate.e2e.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A directory emptied of what an earlier run left there (a staged image's jar and archives, a
 * stack's logs), so that nothing stale passes for this run's. O(files under it).
 */
public final class FreshDirectory {

  private FreshDirectory() {}

  /** Deletes {@code dir} and everything under it, if it exists, and creates it again, empty. */
  public static Path create(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> paths = Files.walk(dir)) {
        for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      }
    }
    return Files.createDirectories(dir);
  }
}
