package dev.toolgate.state;

import io.vertx.core.Future;

/** Turns a bearer token into the caller it proves, or fails with a sentence saying why not. */
public interface Authenticator {

  Future<Caller> authenticate(String token);
}
