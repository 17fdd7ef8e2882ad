package dev.toolgate.operator;

import dev.toolgate.trust.SigningKey;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code toolgate-operator keygen}: a configuration-signing key pair, for use off a cluster. */
@Command(
    name = "keygen",
    mixinStandardHelpOptions = true,
    description = {
      "Writes a new Ed25519 configuration-signing key: the private key (a JWK, readable by its"
          + " owner only) for sign and render --signing-key, and its public half (a JWK set) for"
          + " the sidecar's --config-keys. In a cluster the operator makes its own."
    })
final class KeygenCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--key-id",
      defaultValue = "local",
      paramLabel = "ID",
      description = "The key id, named in every signature (default ${DEFAULT-VALUE}).")
  String keyId;

  @Option(
      names = "--private",
      required = true,
      paramLabel = "FILE",
      description = "Where the private key goes; refused if the file exists.")
  Path privateFile;

  @Option(
      names = "--public",
      required = true,
      paramLabel = "FILE",
      description = "Where the public key set goes.")
  Path publicFile;

  @Override
  public Integer call() {
    SigningKey key;
    try {
      key = SigningKey.generate(keyId);
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("error: --key-id: " + e.getMessage());
      return 2;
    }
    try {
      key.writePair(privateFile, publicFile);
    } catch (IOException e) {
      spec.commandLine().getErr().println("error: " + e);
      return 2;
    }
    spec.commandLine()
        .getErr()
        .println("key " + keyId + ": private " + privateFile + ", public " + publicFile);
    return 0;
  }
}
