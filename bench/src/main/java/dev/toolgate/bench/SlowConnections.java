package dev.toolgate.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Slowloris: connections that send a request's headers a line at a time and never finish them. A
 * connection the server closes is opened again, as an attacker would; {@link #reopened} counts
 * those, what the server's header timeout cut.
 */
final class SlowConnections implements AutoCloseable {

  private static final long LINE_EVERY_MS = 2_000;

  private final int port;
  private final List<Socket> sockets = new ArrayList<>();
  private final AtomicLong reopened = new AtomicLong();
  private final Thread thread;
  private volatile boolean running = true;

  private SlowConnections(int port, int count) {
    this.port = port;
    for (int i = 0; i < count; i++) {
      sockets.add(null);
    }
    this.thread = new Thread(this::run, "slow-connections");
    this.thread.setDaemon(true);
  }

  /** Opens {@code count} slow connections to {@code port} and keeps them trickling. */
  static SlowConnections start(int port, int count) {
    SlowConnections slow = new SlowConnections(port, count);
    slow.thread.start();
    return slow;
  }

  long reopened() {
    return reopened.get();
  }

  private void run() {
    while (running) {
      for (int i = 0; i < sockets.size() && running; i++) {
        Socket s = sockets.get(i);
        try {
          if (s == null) {
            sockets.set(i, open());
          } else {
            s.getOutputStream().write("X-Slow: 1\r\n".getBytes(StandardCharsets.US_ASCII));
            if (s.getInputStream().available() > 0 || s.isClosed()) {
              throw new IOException("answered");
            }
          }
        } catch (IOException e) {
          close(s);
          sockets.set(i, null);
          if (s != null) {
            reopened.incrementAndGet();
          }
        }
      }
      try {
        Thread.sleep(LINE_EVERY_MS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private Socket open() throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
    s.getOutputStream()
        .write(
            "POST /mcp/deployment-api HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                .getBytes(StandardCharsets.US_ASCII));
    return s;
  }

  private static void close(Socket s) {
    if (s != null) {
      try {
        s.close();
      } catch (IOException ignored) {
        // Already gone.
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.interrupt();
    thread.join(5_000);
    sockets.forEach(SlowConnections::close);
  }
}
