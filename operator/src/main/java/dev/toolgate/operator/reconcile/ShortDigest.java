package dev.toolgate.operator.reconcile;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The first 16 hex digits of a text's SHA-256: fit for a label value or an object name (lowercase
 * letters and digits), where the base64url of {@code Hashes} is not.
 */
final class ShortDigest {

  private ShortDigest() {}

  static String of(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JRE", e);
    }
  }
}
