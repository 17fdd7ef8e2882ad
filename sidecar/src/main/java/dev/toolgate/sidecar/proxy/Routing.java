package dev.toolgate.sidecar.proxy;

import dev.toolgate.sidecar.config.LoadedConfig;
import java.util.Map;
import java.util.TreeMap;

/**
 * The configuration in force and the upstream routes derived from it. Immutable: a reload builds a
 * new one and swaps it in whole, so a request sees one consistent configuration from start to end.
 */
public record Routing(LoadedConfig loaded, Map<String, UpstreamRoute> routes) {

  public static Routing of(LoadedConfig loaded) {
    Map<String, UpstreamRoute> routes = new TreeMap<>();
    loaded.config().policy().upstreams().forEach(u -> routes.put(u.name(), UpstreamRoute.of(u)));
    return new Routing(loaded, Map.copyOf(routes));
  }

  UpstreamRoute route(String name) {
    return routes.get(name);
  }

  /** Upstream names, sorted, for error messages. */
  String knownUpstreams() {
    return new TreeMap<>(routes).keySet().toString();
  }
}
