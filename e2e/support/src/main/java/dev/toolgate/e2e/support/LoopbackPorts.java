package dev.toolgate.e2e.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Loopback ports for what is handed a port number before it binds (a child JVM, a Hazelcast
 * member).
 */
public final class LoopbackPorts {

  private static final int ATTEMPTS = 1_000;
  private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

  private LoopbackPorts() {}

  /**
   * A port free on the loopback address now, and never one this JVM was given before: the system
   * can hand out a port it has just released again, and two ports of one configuration would then
   * be the same (a benchmark run saw a sidecar's admin port given to its Hazelcast member too).
   */
  public static int next() throws IOException {
    for (int i = 0; i < ATTEMPTS; i++) {
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        if (GIVEN.add(socket.getLocalPort())) {
          return socket.getLocalPort();
        }
      }
    }
    throw new IOException(
        "no loopback port this JVM was not already given, after " + ATTEMPTS + " tries");
  }
}
