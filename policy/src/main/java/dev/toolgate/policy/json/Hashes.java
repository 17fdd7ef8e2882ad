package dev.toolgate.policy.json;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/** SHA-256, base64url without padding: short, URL- and header-safe identifiers. */
public final class Hashes {

  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  /** One digest per thread: {@code MessageDigest.getInstance} looks the provider up on every call. */
  private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JRE", e);
    }
  });

  private Hashes() {}

  public static String sha256(CharSequence text) {
    MessageDigest digest = SHA_256.get();
    digest.reset();
    return ENCODER.encodeToString(digest.digest(text.toString().getBytes(StandardCharsets.UTF_8)));
  }
}
