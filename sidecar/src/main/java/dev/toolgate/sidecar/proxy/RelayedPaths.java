package dev.toolgate.sidecar.proxy;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The paths of an upstream's origin, besides its MCP endpoint, that agents may reach through the
 * sidecar: those its configuration names ({@code upstreams[].relayPaths}) and the legacy message
 * endpoints it announces on its SSE stream (at most {@link #MAX_ANNOUNCED}).
 */
final class RelayedPaths {

  /**
   * The most announced endpoints remembered: a legacy server announces one per stream, usually the
   * same path with a session in its query.
   */
  static final int MAX_ANNOUNCED = 64;

  private final Set<String> configured;
  private final Set<String> announced = ConcurrentHashMap.newKeySet();

  RelayedPaths(List<String> configured) {
    this.configured = Set.copyOf(configured);
  }

  void announce(String path) {
    if (announced.size() < MAX_ANNOUNCED) {
      announced.add(path);
    }
  }

  boolean contains(String path) {
    return configured.contains(path) || announced.contains(path);
  }
}
