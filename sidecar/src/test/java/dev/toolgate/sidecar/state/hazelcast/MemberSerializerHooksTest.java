package dev.toolgate.sidecar.state.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.map.impl.MapDataSerializerHook;
import java.io.IOException;
import java.net.URL;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemberSerializerHooksTest {

  private final ClassLoader parent = getClass().getClassLoader();

  /**
   * The sidecar's own service file (src/main/resources), not Hazelcast's, which the test class path
   * also has.
   */
  private List<String> sidecarHooks() throws IOException {
    for (URL file : Collections.list(parent.getResources(MemberSerializerHooks.SERVICE_FILE))) {
      if (file.getPath().contains("/target/classes/")) {
        return HookLists.names(file);
      }
    }
    throw new AssertionError("no service file of the sidecar's own on the class path");
  }

  @Test
  void offersHazelcastsCompleteListAsOneMoreServiceFile() throws IOException {
    ClassLoader member = MemberSerializerHooks.over(parent);

    List<URL> files = Collections.list(member.getResources(MemberSerializerHooks.SERVICE_FILE));

    assertThat(files)
        .containsAll(Collections.list(parent.getResources(MemberSerializerHooks.SERVICE_FILE)))
        .contains(parent.getResource(MemberSerializerHooks.ALL_HOOKS));
    assertThat(HookLists.names(parent.getResource(MemberSerializerHooks.ALL_HOOKS)))
        .hasSizeGreaterThan(40)
        .contains(MapDataSerializerHook.class.getName());
  }

  @Test
  void definesNoClassOfItsOwn() throws ClassNotFoundException {
    ClassLoader member = MemberSerializerHooks.over(parent);

    assertThat(member.loadClass(MapDataSerializerHook.class.getName()))
        .isSameAs(MapDataSerializerHook.class);
    assertThat(member.getResource(MemberSerializerHooks.ALL_HOOKS))
        .isEqualTo(parent.getResource(MemberSerializerHooks.ALL_HOOKS));
  }

  @Test
  void refusesAClassPathWithoutHazelcastsCompleteList() {
    ClassLoader without =
        new ClassLoader(parent) {
          @Override
          public URL getResource(String name) {
            return name.equals(MemberSerializerHooks.ALL_HOOKS) ? null : super.getResource(name);
          }
        };

    assertThatThrownBy(() -> MemberSerializerHooks.over(without))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(MemberSerializerHooks.ALL_HOOKS);
  }

  @Test
  void everyHookTheSidecarListsIsOneOfHazelcasts() throws IOException {
    assertThat(sidecarHooks())
        .isNotEmpty()
        .doesNotContain(MapDataSerializerHook.class.getName())
        .isSubsetOf(HookLists.names(parent.getResource(MemberSerializerHooks.ALL_HOOKS)));
  }
}
