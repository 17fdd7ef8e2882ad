package dev.toolgate.operator;

import dev.toolgate.operator.sign.ConfigSigner;
import dev.toolgate.operator.sign.Publication;
import dev.toolgate.trust.SigningKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code toolgate-operator sign --signing-key KEY CONFIG}: a configuration signed by hand. */
@Command(
    name = "sign",
    mixinStandardHelpOptions = true,
    description = {
      "Signs a sidecar configuration with a private key (from keygen), on stdout, as the operator"
          + " signs what it publishes. For one machine, and for a rollback by hand."
    })
final class SignCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--signing-key",
      required = true,
      paramLabel = "FILE",
      description = "The private key (a JWK).")
  Path signingKey;

  @Option(
      names = "--sequence",
      paramLabel = "N",
      description =
          "The publication number, above every earlier one's (default: now, in ms since the"
              + " epoch).")
  Long sequence;

  @Option(
      names = "--rollback",
      description = "Sign it as a rollback: sidecars then accept a lower revision than theirs.")
  boolean rollback;

  @Parameters(paramLabel = "CONFIG", description = "The configuration (YAML) to sign.")
  Path config;

  @Override
  public Integer call() {
    if (sequence != null && sequence < 0) {
      throw new ParameterException(spec.commandLine(), "--sequence must be >= 0, was " + sequence);
    }
    ConfigSigner signer = signer(spec, signingKey);
    String text;
    try {
      text = Files.readString(config);
    } catch (IOException e) {
      spec.commandLine().getErr().println("error: cannot read " + config + ": " + e.getMessage());
      return 2;
    }
    long number = sequence == null ? System.currentTimeMillis() : sequence;
    spec.commandLine().getOut().print(signer.sign(text, new Publication(number, rollback)));
    return 0;
  }

  /** The signer of a private key file, or a usage error naming the file and the problem. */
  static ConfigSigner signer(CommandSpec spec, Path file) {
    try {
      return new ConfigSigner(SigningKey.parse(Files.readString(file)));
    } catch (IOException | IllegalArgumentException e) {
      throw new ParameterException(
          spec.commandLine(), "--signing-key " + file + ": " + e.getMessage());
    }
  }
}
