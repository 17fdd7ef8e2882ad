package dev.toolgate.sidecar.mcp;

import io.vertx.core.buffer.Buffer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A message's bytes read eight to a step, by {@link MessageScanner} and {@link ParsedMessage}: a
 * per-thread array to read them from, and the word test both build on. A pass holds the array until
 * it returns, and neither pass calls the other.
 */
final class ByteWords {

  static final long ONES = 0x0101010101010101L;
  static final long HIGH_BITS = 0x8080808080808080L;

  /** An array grown past this by a large message is not kept. */
  private static final int MAX_KEPT_BYTES = 64 * 1024;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final ThreadLocal<byte[][]> SCRATCH =
      ThreadLocal.withInitial(() -> new byte[][] {new byte[4096]});

  private ByteWords() {}

  /**
   * The message's bytes in this thread's array (its first {@code message.length()}), or in a new
   * one when larger.
   */
  static byte[] copyOf(Buffer message) {
    int length = message.length();
    byte[][] holder = SCRATCH.get();
    byte[] bytes = holder[0];
    if (bytes.length < length) {
      bytes = new byte[length];
      if (length <= MAX_KEPT_BYTES) {
        holder[0] = bytes;
      }
    }
    message.getBytes(0, length, bytes, 0);
    return bytes;
  }

  /** The eight bytes from {@code at}, the first in the lowest byte. */
  static long word(byte[] b, int at) {
    return (long) LONGS.get(b, at);
  }

  /**
   * Non-zero in a byte's high bit (under {@link #HIGH_BITS}) where some byte of {@code v} is zero.
   */
  static long zeroBytes(long v) {
    return (v - ONES) & ~v;
  }

  /** Whether {@code c} is among the first {@code n} bytes of {@code b}. */
  static boolean contains(byte[] b, int n, byte c) {
    long pattern = ONES * (c & 0xFF);
    int i = 0;
    for (; i + Long.BYTES <= n; i += Long.BYTES) {
      if ((zeroBytes(word(b, i) ^ pattern) & HIGH_BITS) != 0) {
        return true;
      }
    }
    for (; i < n; i++) {
      if (b[i] == c) {
        return true;
      }
    }
    return false;
  }
}
