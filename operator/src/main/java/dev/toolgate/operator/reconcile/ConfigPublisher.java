package dev.toolgate.operator.reconcile;

/**
 * Where the active configuration is published besides the ConfigMap, so running sidecars get it in
 * seconds (the kubelet's ConfigMap sync can take a minute; a kill switch should not).
 */
public interface ConfigPublisher {

  /**
   * @param key {@code <namespace>/<policy>}, the sidecars' {@code sharedState.configKey}
   */
  void publish(String key, String config);

  /** The policy is gone: sidecars keep their last configuration, nothing new is published. */
  default void withdraw(String key) {}

  ConfigPublisher NONE = (key, config) -> {};

  /** {@code publisher}, telling {@code failed} of every publication or withdrawal that throws. */
  static ConfigPublisher counted(ConfigPublisher publisher, Runnable failed) {
    return new ConfigPublisher() {
      @Override
      public void publish(String key, String config) {
        try {
          publisher.publish(key, config);
        } catch (RuntimeException e) {
          failed.run();
          throw e;
        }
      }

      @Override
      public void withdraw(String key) {
        try {
          publisher.withdraw(key);
        } catch (RuntimeException e) {
          failed.run();
          throw e;
        }
      }
    };
  }
}
