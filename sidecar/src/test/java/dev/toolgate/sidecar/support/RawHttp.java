package dev.toolgate.sidecar.support;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One HTTP/1.1 exchange written by hand on loopback, for what the JDK's client will not send as
 * written: a foreign Host, a path with dot segments, trickled or oversized bodies.
 */
public final class RawHttp {

  private RawHttp() {}

  /** The status line and the rest of the answer; the request should say Connection: close. */
  public record Answer(String status, String rest) {}

  public static Answer exchange(int port, String request) throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
      BufferedReader in =
          new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
      String status = in.readLine();
      StringBuilder rest = new StringBuilder();
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        rest.append(line).append('\n');
      }
      return new Answer(status, rest.toString());
    }
  }
}
