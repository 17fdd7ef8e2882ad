package dev.toolgate.sidecar.admin;

import dev.toolgate.policy.validation.Redacted;
import dev.toolgate.sidecar.config.ConfigJson;
import dev.toolgate.sidecar.config.ConfigReloader;
import dev.toolgate.sidecar.config.LoadedConfig;
import dev.toolgate.sidecar.config.Provenance;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * What {@code /config} shows: the configuration in force, where it truly came from (the file or the
 * shared state), its revision and who signed it, what this sidecar trusts, and the last document it
 * refused and why. Credentials in URLs are redacted.
 */
final class ConfigView {

  private ConfigView() {}

  static JsonObject of(
      LoadedConfig loaded, ConfigReloader.Rejection rejection, String configFile, String trust) {
    Provenance provenance = loaded.provenance();
    JsonObject out =
        new JsonObject()
            .put("source", provenance.origin().label())
            .put("file", configFile)
            .put("revision", loaded.config().revision())
            .put("hash", loaded.hash())
            .put("loadedAt", loaded.loadedAt().toString())
            .put("signature", signature(provenance))
            .put("trusts", trust);
    if (rejection != null) {
      out.put(
          "lastRejected",
          new JsonObject()
              .put("from", rejection.from().label())
              .put("outcome", rejection.outcome())
              .put("hash", rejection.hash())
              .put("message", Redacted.text(rejection.message()))
              .put("at", rejection.at().toString()));
    }
    JsonObject config = ConfigJson.of(loaded.config());
    redactUrls(config);
    return out.put("config", config);
  }

  private static JsonObject signature(Provenance provenance) {
    if (!provenance.signed()) {
      return new JsonObject().put("signed", false);
    }
    return new JsonObject()
        .put("signed", true)
        .put("keyId", provenance.keyId())
        .put("sequence", provenance.sequence())
        .put("rollback", provenance.rollback());
  }

  /** Credentials and query strings in URLs (webhook tokens, basic auth) never leave the sidecar. */
  private static void redactUrls(Object node) {
    if (node instanceof JsonObject object) {
      for (String name : List.copyOf(object.fieldNames())) {
        Object value = object.getValue(name);
        if (value instanceof String text && endsWithUrl(name)) {
          object.put(name, redact(text));
        } else {
          redactUrls(value);
        }
      }
    } else if (node instanceof JsonArray array) {
      array.forEach(ConfigView::redactUrls);
    }
  }

  /** Compared ignoring case without lowercasing, which depends on the JVM's default locale. */
  private static boolean endsWithUrl(String key) {
    return key.length() >= 3 && key.regionMatches(true, key.length() - 3, "url", 0, 3);
  }

  static String redact(String url) {
    return Redacted.url(url);
  }
}
