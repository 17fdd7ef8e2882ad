package dev.toolgate.sidecar.config;

import dev.toolgate.policy.config.AdminOptions;
import dev.toolgate.policy.config.AgentIdentity;
import dev.toolgate.policy.config.ApprovalOptions;
import dev.toolgate.policy.config.ListenAddress;
import dev.toolgate.policy.config.RuntimeOptions;
import dev.toolgate.policy.config.SharedStateOptions;
import dev.toolgate.policy.config.SidecarConfig;
import dev.toolgate.policy.config.StateApiOptions;
import dev.toolgate.policy.model.Policy;
import dev.toolgate.policy.model.QuotaNotify;
import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.validation.PolicyValidator;
import dev.toolgate.policy.validation.Violation;
import dev.toolgate.sidecar.approval.ApprovalTokens;
import dev.toolgate.sidecar.config.RecordBinder.BindingException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * Reads a sidecar configuration file (YAML), checks its shape, then the policy's coherence, and
 * returns it with its hash. Every problem names the field and the bad value.
 *
 * <p>The file is the policy (the {@code ToolPolicy} spec's fields at the top level) plus the
 * sidecar's own fields: {@code revision}, {@code listen}, {@code admin}, {@code runtime}.
 */
public final class ConfigLoader {

  /** The fields of the file that configure the sidecar rather than the policy. */
  static final List<String> SIDECAR_FIELDS =
      List.of("revision", "listen", "admin", "runtime", "approvals", "agent", "sharedState");

  /** The sidecar's own fields, read apart from the policy's. */
  private record Deployment(
      Long revision,
      ListenAddress listen,
      AdminOptions admin,
      RuntimeOptions runtime,
      ApprovalOptions approvals,
      AgentIdentity agent,
      SharedStateOptions sharedState) {}

  private final Clock clock;
  private final ConfigTrust trust;
  private final String agentId;

  public ConfigLoader(Clock clock, ConfigTrust trust) {
    this(clock, trust, null);
  }

  private ConfigLoader(Clock clock, ConfigTrust trust, String agentId) {
    this.clock = clock;
    this.trust = trust;
    this.agentId = agentId;
  }

  /**
   * The same loader, with every document's {@code agent.id} replaced by {@code id} (the workload
   * the injector derived from the pod's owner); null keeps the document's.
   */
  public ConfigLoader withAgent(String id) {
    return new ConfigLoader(clock, trust, id == null || id.isBlank() ? null : id);
  }

  /** Reads, checks the signature of, parses and validates the file. */
  public LoadedConfig load(Path file) throws ConfigException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new ConfigException(file.toString(), List.of("cannot read the file: " + e));
    }
    return parse(ConfigOrigin.FILE, file.toString(), bytes);
  }

  /**
   * Checks the signature of {@code raw}, then parses and validates the document it vouches for;
   * {@code source} names the file in error messages.
   */
  public LoadedConfig parse(ConfigOrigin origin, String source, byte[] raw) throws ConfigException {
    if (new String(raw, StandardCharsets.UTF_8).isBlank()) {
      throw new ConfigException(source, List.of("the file is empty"));
    }
    ConfigTrust.Opened opened = trust.open(origin, source, raw);
    return parse(source, opened.document(), sha256(raw), opened.provenance());
  }

  private LoadedConfig parse(String source, byte[] bytes, String hash, Provenance provenance)
      throws ConfigException {
    if (new String(bytes, StandardCharsets.UTF_8).isBlank()) {
      throw new ConfigException(source, List.of("the file is empty"));
    }
    Node tree;
    try {
      tree =
          new Compose(RecordBinder.settings(source))
              .composeInputStream(new ByteArrayInputStream(bytes))
              .orElse(null);
    } catch (MarkedYamlEngineException e) {
      throw new ConfigException(
          source,
          List.of(
              "not valid YAML"
                  + RecordBinder.location(e.getProblemMark())
                  + ": "
                  + e.getProblem()));
    } catch (YamlEngineException e) {
      throw new ConfigException(source, List.of("not valid YAML: " + firstLine(e.getMessage())));
    }
    if (!(tree instanceof MappingNode root)) {
      throw new ConfigException(source, List.of("the file must be a YAML mapping of fields"));
    }
    List<NodeTuple> sidecarFields = new ArrayList<>();
    List<NodeTuple> policyFields = new ArrayList<>();
    for (NodeTuple field : root.getValue()) {
      boolean sidecarField =
          field.getKeyNode() instanceof ScalarNode key && SIDECAR_FIELDS.contains(key.getValue());
      (sidecarField ? sidecarFields : policyFields).add(field);
    }
    SidecarConfig config;
    try {
      Deployment deployment = RecordBinder.bind(mapping(sidecarFields), Deployment.class);
      Policy policy = RecordBinder.bind(mapping(policyFields), Policy.class);
      config =
          new SidecarConfig(
              deployment.revision() == null ? 0 : deployment.revision(),
              deployment.listen(),
              resolveAdmin(deployment.admin(), source),
              deployment.runtime(),
              resolve(deployment.approvals(), source),
              agentId == null ? deployment.agent() : new AgentIdentity(agentId),
              resolveState(deployment.sharedState(), source),
              resolveCredentials(resolveNotify(policy, source), source));
    } catch (BindingException e) {
      throw new ConfigException(source, List.of(e.getMessage()));
    }
    List<String> problems = new ArrayList<>();
    for (Violation v : PolicyValidator.validate(config.policy())) {
      problems.add(v.toString());
    }
    if (config.revision() < 0) {
      problems.add("revision: must be >= 0, was " + config.revision());
    }
    listen("listen", config.listen(), problems);
    listen("admin", config.admin().address(), problems);
    if (config.admin().tokenFile() != null) {
      try {
        if (Files.readString(Path.of(config.admin().tokenFile())).strip().length() < 16) {
          problems.add("admin.tokenFile: the token must hold at least 16 characters");
        }
      } catch (IOException e) {
        // Not yet there (an optional Secret not created yet): the admin API stays closed until
        // it can be read; everything else runs.
      }
    }
    if (config.runtime().maxBodyBytes() < 1024) {
      problems.add("runtime.maxBodyBytes: must be >= 1024, was " + config.runtime().maxBodyBytes());
    }
    if (config.runtime().maxAnswerBytes() < 1024) {
      problems.add(
          "runtime.maxAnswerBytes: must be >= 1024, was " + config.runtime().maxAnswerBytes());
    }
    long largestBody = Math.max(config.runtime().maxBodyBytes(), config.runtime().maxAnswerBytes());
    if (config.runtime().maxHeldBytes() < 2 * largestBody) {
      problems.add(
          "runtime.maxHeldBytes: must be at least twice runtime.maxBodyBytes and"
              + " runtime.maxAnswerBytes (requests may take half of it), so "
              + 2 * largestBody
              + ", was "
              + config.runtime().maxHeldBytes());
    }
    if (config.runtime().configPollMs() < 10) {
      problems.add("runtime.configPollMs: must be >= 10, was " + config.runtime().configPollMs());
    }
    if (config.runtime().connectTimeoutMs() < 1) {
      problems.add(
          "runtime.connectTimeoutMs: must be >= 1, was " + config.runtime().connectTimeoutMs());
    }
    if (config.runtime().idleTimeoutSeconds() < 1) {
      problems.add(
          "runtime.idleTimeoutSeconds: must be >= 1, was " + config.runtime().idleTimeoutSeconds());
    }
    if (config.runtime().headerTimeoutMs() < 100) {
      problems.add(
          "runtime.headerTimeoutMs: must be >= 100, was " + config.runtime().headerTimeoutMs());
    }
    if (config.runtime().maxConnections() < 8) {
      problems.add(
          "runtime.maxConnections: must be >= 8, was " + config.runtime().maxConnections());
    }
    if (config.runtime().warmupCalls() < 0
        || config.runtime().warmupCalls() > RuntimeOptions.MAX_WARMUP_CALLS) {
      problems.add(
          "runtime.warmupCalls: must be between 0 (off) and "
              + RuntimeOptions.MAX_WARMUP_CALLS
              + ", was "
              + config.runtime().warmupCalls());
    }
    approvals(config, problems);
    SharedStateOptions shared = config.sharedState();
    if (shared.mode() == SharedStateOptions.Mode.CLIENT
        && shared.members().isEmpty()
        && shared.kubernetesServiceDns() == null) {
      problems.add("sharedState: client mode needs members or kubernetesServiceDns");
    }
    if (shared.mode() == SharedStateOptions.Mode.API) {
      StateApiOptions api = shared.api();
      if (api.url() == null || !api.url().startsWith("https://")) {
        problems.add(
            "sharedState.api.url: api mode needs the state service's https URL, was " + api.url());
      }
      if ((api.caFile() == null) == (api.ca() == null)) {
        problems.add(
            "sharedState.api: api mode needs the state service's CA bundle, as caFile or as ca"
                + " (one of them)");
      }
      if (api.tokenFile() == null) {
        problems.add("sharedState.api.tokenFile: api mode needs the file of this sidecar's token");
      }
      if (api.timeoutMs() < 1) {
        problems.add("sharedState.api.timeoutMs: must be >= 1, was " + api.timeoutMs());
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(source, problems);
    }
    ApprovalTokens tokens = null;
    if (config.approvals().publicKeysFile() != null) {
      try {
        tokens = ApprovalTokens.fromFile(Path.of(config.approvals().publicKeysFile()));
      } catch (IOException e) {
        throw new ConfigException(
            source,
            List.of(
                "approvals.publicKeysFile: cannot read " + config.approvals().publicKeysFile()));
      } catch (IllegalArgumentException e) {
        throw new ConfigException(source, List.of("approvals.publicKeysFile: " + e.getMessage()));
      }
    }
    return new LoadedConfig(config, hash, clock.instant(), tokens, provenance);
  }

  /** A relative path in the file is resolved against the file's directory. */
  private static String relativeTo(String source, String path) {
    if (path == null) {
      return null;
    }
    Path dir = Path.of(source).toAbsolutePath().getParent();
    return Path.of(path).isAbsolute() || dir == null
        ? path
        : dir.resolve(path).normalize().toString();
  }

  /** The upstreams' credential files, like every other path of the file. */
  private static Policy resolveCredentials(Policy policy, String source) {
    if (policy.upstreams().stream().allMatch(u -> u.auth() == null)) {
      return policy;
    }
    return policy.withUpstreams(
        policy.upstreams().stream()
            .map(
                u ->
                    u.auth() == null
                        ? u
                        : u.withAuth(u.auth().withFiles(f -> relativeTo(source, f))))
            .toList());
  }

  /** The quota notification's key and CA files, like every other path of the file. */
  private static Policy resolveNotify(Policy policy, String source) {
    Quotas quotas = policy.quotas();
    QuotaNotify notify = quotas == null ? null : quotas.notification();
    if (notify == null) {
      return policy;
    }
    QuotaNotify resolved =
        new QuotaNotify(
            notify.webhookUrl(),
            relativeTo(source, notify.secretFile()),
            relativeTo(source, notify.caFile()));
    return policy.withQuotas(quotas.withNotification(resolved));
  }

  private static SharedStateOptions resolveState(SharedStateOptions shared, String source) {
    if (shared == null) {
      return null;
    }
    StateApiOptions api = shared.api();
    return shared.withApi(
        new StateApiOptions(
            api.url(),
            relativeTo(source, api.caFile()),
            api.ca(),
            relativeTo(source, api.tokenFile()),
            api.timeoutMs()));
  }

  private static ApprovalOptions resolve(ApprovalOptions approvals, String source) {
    return approvals == null
        ? null
        : new ApprovalOptions(relativeTo(source, approvals.publicKeysFile()));
  }

  private static AdminOptions resolveAdmin(AdminOptions admin, String source) {
    return admin == null
        ? null
        : new AdminOptions(admin.host(), admin.port(), relativeTo(source, admin.tokenFile()));
  }

  private static void approvals(SidecarConfig config, List<String> problems) {
    String keyFile = config.approvals().publicKeysFile();
    var tools = config.policy().tools();
    for (int i = 0; i < tools.size(); i++) {
      if (tools.get(i).approval() == dev.toolgate.policy.model.Approval.HUMAN_REQUIRED
          && keyFile == null) {
        problems.add(
            "tools["
                + i
                + "].approval: human_required needs approvals.publicKeysFile, the approvers'"
                + " public keys that verify approval tokens");
      }
    }
  }

  private static void listen(String at, ListenAddress address, List<String> problems) {
    if (address.port() < 0 || address.port() > 65535) {
      problems.add(at + ".port: must be in [0, 65535], was " + address.port());
    }
    if (address.host().isBlank()) {
      problems.add(at + ".host: must not be blank");
    }
  }

  private static MappingNode mapping(List<NodeTuple> fields) {
    return new MappingNode(Tag.MAP, fields, FlowStyle.AUTO);
  }

  private static String firstLine(String message) {
    int cut = message.indexOf('\n');
    return cut < 0 ? message : message.substring(0, cut);
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JRE", e);
    }
  }
}
