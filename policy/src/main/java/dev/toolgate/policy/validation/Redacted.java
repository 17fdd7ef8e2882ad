package dev.toolgate.policy.validation;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * URLs as they may be shown (in {@code /config}, a refusal, the log): without their user info
 * (basic auth) and with their query replaced (webhook tokens, API keys), whether the URL is a
 * configuration value or quoted in a message.
 */
public final class Redacted {

  private Redacted() {}

  /** A URL inside a text: a scheme, {@code ://}, and everything up to a space or a quote. */
  private static final Pattern URL_IN_TEXT =
      Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://[^\\s'\"<>`]+");

  /** {@code url} without its user info, its query replaced by {@code redacted}. */
  public static String url(String url) {
    if (url == null) {
      return null;
    }
    try {
      URI uri = new URI(url);
      if (uri.getRawUserInfo() == null && uri.getRawQuery() == null) {
        return url;
      }
      return new URI(
              uri.getScheme(),
              null,
              uri.getHost(),
              uri.getPort(),
              uri.getPath(),
              uri.getRawQuery() == null ? null : "redacted",
              uri.getFragment())
          .toString();
    } catch (URISyntaxException e) {
      return "(a URL that does not parse, not shown: it may hold a credential)";
    }
  }

  /** {@code text} with every URL in it redacted as {@link #url} does. */
  public static String text(String text) {
    if (text == null || !text.contains("://")) {
      return text;
    }
    Matcher m = URL_IN_TEXT.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(url(m.group())));
    }
    m.appendTail(out);
    return out.toString();
  }
}
