package dev.toolgate.policy.json;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * SHA-256, base64url without padding: short, URL- and header-safe identifiers.
 *
 * <p>Text is hashed as its UTF-8 bytes (what {@code getBytes(UTF_8)} gives, an unpaired surrogate
 * as {@code '?'}), encoded chunk by chunk into a per-thread buffer: no copy of the text, however
 * long the arguments are. O(length).
 */
public final class Hashes {

  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final int CHUNK = 4096;

  /**
   * One digest and one byte chunk per thread: {@code MessageDigest.getInstance} looks the provider
   * up.
   */
  private static final ThreadLocal<Sha256> SHA_256 = ThreadLocal.withInitial(Sha256::new);

  private static final class Sha256 {
    final MessageDigest digest;
    final byte[] chunk = new byte[CHUNK + 4];

    Sha256() {
      try {
        digest = MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("SHA-256 is part of every JRE", e);
      }
    }
  }

  private Hashes() {}

  public static String sha256(CharSequence text) {
    Sha256 sha = start();
    update(sha, text);
    return finish(sha);
  }

  /**
   * The hash of the parts one after the other: {@code sha256(a + b + c)} without joining them (each
   * part is encoded on its own: a surrogate pair split between two parts is two unpaired halves).
   */
  public static String sha256(CharSequence... parts) {
    Sha256 sha = start();
    for (CharSequence part : parts) {
      update(sha, part);
    }
    return finish(sha);
  }

  private static Sha256 start() {
    Sha256 sha = SHA_256.get();
    sha.digest.reset();
    return sha;
  }

  private static String finish(Sha256 sha) {
    return ENCODER.encodeToString(sha.digest.digest());
  }

  private static void update(Sha256 sha, CharSequence text) {
    byte[] out = sha.chunk;
    int n = 0;
    int length = text.length();
    for (int i = 0; i < length; i++) {
      if (n >= CHUNK) {
        sha.digest.update(out, 0, n);
        n = 0;
      }
      char c = text.charAt(i);
      if (c < 0x80) {
        out[n++] = (byte) c;
      } else if (c < 0x800) {
        out[n++] = (byte) (0xC0 | (c >> 6));
        out[n++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isSurrogate(c)) {
        char low = i + 1 < length ? text.charAt(i + 1) : 0;
        if (Character.isHighSurrogate(c) && Character.isLowSurrogate(low)) {
          int cp = Character.toCodePoint(c, low);
          i++;
          out[n++] = (byte) (0xF0 | (cp >> 18));
          out[n++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
          out[n++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
          out[n++] = (byte) (0x80 | (cp & 0x3F));
        } else {
          out[n++] = '?';
        }
      } else {
        out[n++] = (byte) (0xE0 | (c >> 12));
        out[n++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        out[n++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    sha.digest.update(out, 0, n);
  }
}
