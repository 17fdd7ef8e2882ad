package dev.toolgate.sidecar.state.hazelcast;

import com.hazelcast.client.impl.clientside.HazelcastClientProxy;
import com.hazelcast.core.HazelcastInstance;
import java.lang.reflect.Field;
import java.util.concurrent.ThreadPoolExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Caps the Hazelcast client's connection tasks at {@link #THREADS} threads.
 *
 * <p>The client's connection manager runs its background tasks (a connection to every member,
 * retried each second; the reconnection to the cluster; connection events) on a scheduled pool
 * whose core size, 10, is fixed in its code: no property sets it. A scheduled pool starts a thread
 * for every task it is given until it holds its core size, so the once-a-second task alone brings
 * all ten into being within ten seconds of start, each parked for the process's life. Each costs
 * its stack's touched pages in resident memory and a walk of its frames in every young collection.
 * Two keep a reconnection that blocks from holding up the other tasks. The pool is reached through
 * the connection manager's private field: where a Hazelcast version holds it elsewhere, the client
 * keeps its ten threads and the sidecar says so once.
 *
 * <p>Cost: one reflective lookup at start; a core size lowered on a live pool lets its extra
 * threads end when idle (the pool's keep-alive), without touching the tasks.
 */
final class ConnectionTaskPool {

  /** Threads left to the connection manager's tasks. */
  static final int THREADS = 2;

  static final String FIELD = "executor";

  private static final Logger LOG = LoggerFactory.getLogger(ConnectionTaskPool.class);

  private ConnectionTaskPool() {}

  /** Caps a started client's connection tasks; logs a warning where its pool was not found. */
  static void cap(HazelcastInstance client) {
    boolean capped =
        client instanceof HazelcastClientProxy proxy
            && proxy.client != null
            && cap(proxy.client.getConnectionManager(), THREADS);
    if (!capped) {
      LOG.warn(
          "The Hazelcast client's connection pool was not found: it keeps its own thread count");
    }
  }

  /** Lowers the core size of the pool in {@code owner}'s {@value #FIELD} field; false if none. */
  static boolean cap(Object owner, int threads) {
    try {
      Field field = owner.getClass().getDeclaredField(FIELD);
      field.setAccessible(true);
      if (field.get(owner) instanceof ThreadPoolExecutor pool) {
        if (pool.getCorePoolSize() > threads) {
          pool.setCorePoolSize(threads);
        }
        return true;
      }
      return false;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return false;
    }
  }
}
