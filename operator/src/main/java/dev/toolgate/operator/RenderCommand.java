package dev.toolgate.operator;

import dev.toolgate.operator.render.RenderOptions;
import dev.toolgate.operator.render.SidecarConfigRenderer;
import dev.toolgate.operator.sign.ConfigSigner;
import dev.toolgate.operator.sign.Publication;
import dev.toolgate.policy.config.RuntimeOptions;
import dev.toolgate.policy.config.SharedStateOptions;
import dev.toolgate.policy.config.StateApiOptions;
import dev.toolgate.policy.validation.InvalidPolicyException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** {@code toolgate-operator render -f toolpolicy.yaml}: the sidecar configuration, offline. */
@Command(
    name = "render",
    mixinStandardHelpOptions = true,
    description =
        "Renders a ToolPolicy (YAML) into the sidecar configuration it stands for, on stdout.")
final class RenderCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = {"-f", "--file"},
      required = true,
      paramLabel = "FILE",
      description = "The ToolPolicy.")
  Path file;

  @Option(
      names = "--revision",
      paramLabel = "N",
      defaultValue = "1",
      description = "The revision to stamp (default ${DEFAULT-VALUE}).")
  long revision;

  @Option(names = "--agent", paramLabel = "ID", description = "The workload's id (default local).")
  String agent;

  @Option(
      names = "--shared-state",
      paramLabel = "MODE",
      converter = ModeConverter.class,
      description = "embedded (default), local, client or api.")
  SharedStateOptions.Mode mode;

  @Option(
      names = "--hazelcast-dns",
      paramLabel = "NAME",
      description = "Client mode: the Hazelcast headless service.")
  String dns;

  @Option(
      names = "--hazelcast-members",
      paramLabel = "LIST",
      split = ",",
      description = "Client mode: comma-separated host:port.")
  List<String> members = List.of();

  @Option(
      names = "--approval-keys-file",
      paramLabel = "PATH",
      description =
          "Where the approvers' public keys (a JWK set) are mounted (default "
              + RenderOptions.DEFAULT_APPROVAL_KEYS_FILE
              + ").")
  String approvalKeysFile;

  @Option(
      names = "--admin-token-file",
      paramLabel = "PATH",
      description = "Where the admin token is mounted.")
  String adminTokenFile;

  @Option(
      names = "--admin-host",
      paramLabel = "HOST",
      description = "The admin listener's address (default 127.0.0.1; 0.0.0.0 to be scraped).")
  String adminHost;

  @Option(
      names = "--shared-state-port",
      paramLabel = "N",
      converter = PortConverter.class,
      description = "Embedded mode: the member's port.")
  Integer sharedStatePort;

  @Option(
      names = "--upstream",
      paramLabel = "NAME=URL",
      description = "Use URL for upstream NAME (repeatable): run a cluster policy locally.")
  Map<String, String> upstreams = new LinkedHashMap<>();

  @Option(
      names = "--listen-port",
      paramLabel = "N",
      converter = PortConverter.class,
      description = "The MCP port (default " + RenderOptions.DEFAULT_LISTEN_PORT + ").")
  Integer listenPort;

  @Option(
      names = "--admin-port",
      paramLabel = "N",
      converter = PortConverter.class,
      description = "The admin port (default " + RenderOptions.DEFAULT_ADMIN_PORT + ").")
  Integer adminPort;

  @Option(
      names = "--warmup-calls",
      paramLabel = "N",
      description =
          "The sidecar's runtime.warmupCalls, 0 (off) to "
              + RenderOptions.MAX_WARMUP_CALLS
              + " (default: the sidecar's own, "
              + RuntimeOptions.DEFAULT_WARMUP_CALLS
              + ").")
  Integer warmupCalls;

  @Option(
      names = "--state-url",
      paramLabel = "URL",
      description = "With --shared-state api: the state service's https URL.")
  String stateUrl;

  @Option(
      names = "--state-ca-file",
      paramLabel = "FILE",
      description = "With --shared-state api: the CA bundle (PEM) that signed its certificate.")
  String stateCaFile;

  @Option(
      names = "--state-token-file",
      paramLabel = "FILE",
      description = "With --shared-state api: the file holding the sidecar's token.")
  String stateTokenFile;

  @Option(
      names = "--signing-key",
      paramLabel = "FILE",
      description = {
        "Sign the output with this private key (a JWK, from keygen), as the operator signs what it"
            + " publishes; a sidecar refuses an unsigned configuration unless told otherwise."
      })
  Path signingKey;

  @Option(
      names = "--rollback",
      description = "With --signing-key: sign it as a rollback to an older revision.")
  boolean rollback;

  @Override
  public Integer call() {
    boolean stateGiven = stateUrl != null || stateCaFile != null || stateTokenFile != null;
    if (stateGiven != (mode == SharedStateOptions.Mode.API)) {
      throw new ParameterException(
          spec.commandLine(),
          "--shared-state api goes with --state-url, --state-ca-file and --state-token-file");
    }
    RenderOptions options;
    try {
      options =
          new RenderOptions(
              revision,
              agent,
              mode,
              dns,
              members,
              approvalKeysFile,
              adminTokenFile,
              adminHost,
              sharedStatePort,
              upstreams,
              listenPort,
              adminPort,
              warmupCalls,
              stateUrl == null && stateCaFile == null && stateTokenFile == null
                  ? null
                  : new StateApiOptions(stateUrl, stateCaFile, null, stateTokenFile, null));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    PrintWriter err = spec.commandLine().getErr();
    if (rollback && signingKey == null) {
      throw new ParameterException(spec.commandLine(), "--rollback goes with --signing-key");
    }
    ConfigSigner signer = signingKey == null ? null : SignCommand.signer(spec, signingKey);
    try {
      String text = Files.readString(file);
      String rendered = SidecarConfigRenderer.render(SidecarConfigRenderer.parse(text), options);
      spec.commandLine()
          .getOut()
          .print(
              signer == null
                  ? rendered
                  : signer.sign(rendered, new Publication(System.currentTimeMillis(), rollback)));
      return 0;
    } catch (IOException e) {
      err.println("error: cannot read " + file + ": " + e.getMessage());
      return 2;
    } catch (InvalidPolicyException e) {
      err.println("error: " + file + ": " + e.getMessage());
      return 2;
    } catch (RuntimeException e) {
      err.println("error: " + file + " is not a valid ToolPolicy: " + e.getMessage());
      return 2;
    }
  }

  /** A TCP port a listener can bind: 1 to 65535. */
  static final class PortConverter implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      int port;
      try {
        port = Integer.parseInt(value);
      } catch (NumberFormatException e) {
        throw new TypeConversionException("takes a number, was '" + value + "'");
      }
      if (port < 1 || port > 65535) {
        throw new TypeConversionException("must be in [1, 65535], was " + port);
      }
      return port;
    }
  }

  /** A shared-state mode by its name in the file. */
  static final class ModeConverter implements ITypeConverter<SharedStateOptions.Mode> {
    @Override
    public SharedStateOptions.Mode convert(String value) {
      for (SharedStateOptions.Mode mode : SharedStateOptions.Mode.values()) {
        if (mode.name().toLowerCase(Locale.ROOT).equals(value)) {
          return mode;
        }
      }
      throw new TypeConversionException(
          "takes local, embedded, client or api, was '" + value + "'");
    }
  }
}
