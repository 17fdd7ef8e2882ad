package dev.toolgate.sidecar.support;

import java.io.IOException;
import java.net.ServerSocket;

/** Ports for what a test hands a port number to before it binds (a child JVM, a Hazelcast member). */
public final class FreePorts {

  private FreePorts() {}

  /** A port free on this machine now, chosen by the system. */
  public static int next() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
