package dev.toolgate.sidecar.state.hazelcast;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * The operator's publication of this sidecar's configuration (map {@value #CONFIGS}, key {@code
 * <namespace>/<policy>}): every new value is handed over, so a kill switch or a rollback reaches
 * running sidecars in seconds instead of the kubelet's ConfigMap sync.
 */
public final class ConfigFeed {

  public static final String CONFIGS = "toolgate.configs";

  private ConfigFeed() {}

  static String get(HazelcastInstance hazelcast, String key) {
    IMap<String, String> configs = hazelcast.getMap(CONFIGS);
    return configs.get(key);
  }

  static void put(HazelcastInstance hazelcast, String key, String config) {
    IMap<String, String> configs = hazelcast.getMap(CONFIGS);
    configs.set(key, config);
  }

  static void delete(HazelcastInstance hazelcast, String key) {
    IMap<String, String> configs = hazelcast.getMap(CONFIGS);
    configs.delete(key);
  }

  /** Listens for the key; {@code onConfig} runs on a Hazelcast thread. */
  public static void follow(HazelcastInstance hazelcast, String key, Consumer<byte[]> onConfig) {
    IMap<String, String> configs = hazelcast.getMap(CONFIGS);
    class Listener
        implements EntryAddedListener<String, String>, EntryUpdatedListener<String, String> {
      @Override
      public void entryAdded(EntryEvent<String, String> event) {
        onConfig.accept(event.getValue().getBytes(StandardCharsets.UTF_8));
      }

      @Override
      public void entryUpdated(EntryEvent<String, String> event) {
        onConfig.accept(event.getValue().getBytes(StandardCharsets.UTF_8));
      }
    }
    configs.addEntryListener(new Listener(), key, true);
    String current = configs.get(key);
    if (current != null) {
      onConfig.accept(current.getBytes(StandardCharsets.UTF_8));
    }
  }
}
