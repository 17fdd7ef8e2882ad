package dev.toolgate.sidecar.approval;

import dev.toolgate.trust.SigningKey;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code toolgate-sidecar approve keygen}: an approver's key pair. */
@Command(
    name = "keygen",
    mixinStandardHelpOptions = true,
    description = {
      "Writes a new Ed25519 approval key: the private key (a JWK, readable by its owner only),"
          + " which stays with the approver for approve --key-file, and its public half (a JWK"
          + " set) for the sidecars' approvals.publicKeysFile. Several approvers' public keys go"
          + " in one set; each key id names its approver's key in every approval."
    })
final class ApprovalKeygenCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--key-id",
      required = true,
      paramLabel = "ID",
      description = "The key id, e.g. the approver's name and the year.")
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
    try {
      SigningKey.generate(keyId).writePair(privateFile, publicFile);
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("error: --key-id: " + e.getMessage());
      return 2;
    } catch (IOException e) {
      spec.commandLine().getErr().println("error: " + e);
      return 2;
    }
    spec.commandLine()
        .getErr()
        .println("approval key " + keyId + ": private " + privateFile + ", public " + publicFile);
    return 0;
  }
}
