package dev.toolgate.sidecar.state.hazelcast;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads Hazelcast's service files as its service loader does: a class name a line, {@code #} starts
 * a comment.
 */
final class HookLists {

  private HookLists() {}

  static List<String> names(InputStream serviceFile) throws IOException {
    List<String> names = new ArrayList<>();
    BufferedReader lines =
        new BufferedReader(new InputStreamReader(serviceFile, StandardCharsets.UTF_8));
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      int comment = line.indexOf('#');
      String name = (comment < 0 ? line : line.substring(0, comment)).trim();
      if (!name.isEmpty()) {
        names.add(name);
      }
    }
    return names;
  }

  static List<String> names(URL serviceFile) throws IOException {
    try (InputStream in = serviceFile.openStream()) {
      return names(in);
    }
  }
}
