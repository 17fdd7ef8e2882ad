package dev.toolgate.sidecar.state.hazelcast;

import java.io.IOException;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;

/**
 * The class loader of an embedded member's configuration, through which Hazelcast finds every one
 * of its own DataSerializable hooks, where the sidecar's jar lists only those a client needs.
 *
 * <p>Whenever a Hazelcast instance starts, client or member, it builds the factory of every hook
 * that the service files ({@value #SERVICE_FILE}) of its configuration's class loader, the thread's
 * and its own list, and each factory loads the classes it can create. The sidecar's jar lists a
 * client's hooks only, which spares a client-mode sidecar about a thousand classes and as many
 * lambda classes. A member needs them all, to run what other members send it: the build keeps
 * Hazelcast's complete list in the jar under this package ({@value #ALL_HOOKS}, where no service
 * loader looks), and this loader offers it as one more service file. Hazelcast loads each hook
 * class once, whichever files list it. Every class comes from the parent: the loader defines none.
 */
final class MemberSerializerHooks extends ClassLoader {

  static final String SERVICE_FILE = "META-INF/services/com.hazelcast.DataSerializerHook";
  static final String ALL_HOOKS = "dev/toolgate/sidecar/state/hazelcast/all-hooks/" + SERVICE_FILE;

  private final URL allHooks;

  private MemberSerializerHooks(ClassLoader parent, URL allHooks) {
    super("toolgate-member", parent);
    this.allHooks = allHooks;
  }

  /**
   * @throws IllegalStateException if {@code parent} lacks Hazelcast's complete list (a jar the
   *     project's Maven build did not make)
   */
  static ClassLoader over(ClassLoader parent) {
    URL allHooks = parent.getResource(ALL_HOOKS);
    if (allHooks == null) {
      throw new IllegalStateException(
          ALL_HOOKS
              + " is missing from the class path: without Hazelcast's list of its"
              + " serializer hooks a member could not read what other members send it (build with ./mvnw package)");
    }
    return new MemberSerializerHooks(parent, allHooks);
  }

  @Override
  protected Enumeration<URL> findResources(String name) throws IOException {
    return name.equals(SERVICE_FILE)
        ? Collections.enumeration(Collections.singletonList(allHooks))
        : Collections.emptyEnumeration();
  }
}
