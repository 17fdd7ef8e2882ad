package dev.toolgate.sidecar.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.toolgate.policy.model.Policy;
import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.model.QuotaNotify;
import dev.toolgate.policy.validation.PolicyValidator;
import dev.toolgate.policy.validation.Violation;
import dev.toolgate.sidecar.approval.ApprovalTokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Reads a sidecar configuration file (YAML), checks its shape, then the policy's coherence, and
 * returns it with its hash. Every problem names the field and the bad value.
 *
 * <p>The file is the policy (the {@code ToolPolicy} spec's fields at the top level) plus the
 * sidecar's own fields: {@code revision}, {@code listen}, {@code admin}, {@code runtime}.
 */
public final class ConfigLoader {

  private static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
          .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);

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

  public ConfigLoader(Clock clock) {
    this.clock = clock;
  }

  public LoadedConfig load(Path file) throws ConfigException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new ConfigException(file.toString(), List.of("cannot read the file: " + e));
    }
    return parse(file.toString(), bytes);
  }

  /** Parses and validates; {@code source} names the file in error messages. */
  public LoadedConfig parse(String source, byte[] bytes) throws ConfigException {
    if (new String(bytes, StandardCharsets.UTF_8).isBlank()) {
      throw new ConfigException(source, List.of("the file is empty"));
    }
    SidecarConfig config;
    try {
      JsonNode tree = YAML.readTree(bytes);
      if (!(tree instanceof ObjectNode root)) {
        throw new ConfigException(source, List.of("the file must be a YAML mapping of fields"));
      }
      ObjectNode sidecar = root.objectNode();
      for (String key : SIDECAR_FIELDS) {
        JsonNode value = root.remove(key);
        if (value != null) {
          sidecar.set(key, value);
        }
      }
      Deployment deployment = YAML.treeToValue(sidecar, Deployment.class);
      Policy policy = YAML.treeToValue(root, Policy.class);
      config =
          new SidecarConfig(
              deployment.revision() == null ? 0 : deployment.revision(),
              deployment.listen(),
              resolveAdmin(deployment.admin(), source),
              deployment.runtime(),
              resolve(deployment.approvals(), source),
              deployment.agent(),
              deployment.sharedState(),
              resolveNotify(policy, source));
    } catch (JsonMappingException e) {
      throw new ConfigException(source, List.of(describe(e)));
    } catch (JsonProcessingException e) {
      throw new ConfigException(source, List.of(syntax(e)));
    } catch (IOException e) {
      throw new ConfigException(source, List.of("cannot parse: " + e.getMessage()));
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
        problems.add("admin.tokenFile: cannot read " + config.admin().tokenFile());
      }
    }
    if (config.runtime().maxBodyBytes() < 1024) {
      problems.add("runtime.maxBodyBytes: must be >= 1024, was " + config.runtime().maxBodyBytes());
    }
    if (config.runtime().configPollMs() < 10) {
      problems.add("runtime.configPollMs: must be >= 10, was " + config.runtime().configPollMs());
    }
    if (config.runtime().connectTimeoutMs() < 1) {
      problems.add(
          "runtime.connectTimeoutMs: must be >= 1, was " + config.runtime().connectTimeoutMs());
    }
    if (config.runtime().warmupCalls() < 0 || config.runtime().warmupCalls() > RuntimeOptions.MAX_WARMUP_CALLS) {
      problems.add("runtime.warmupCalls: must be between 0 (off) and " + RuntimeOptions.MAX_WARMUP_CALLS
          + ", was " + config.runtime().warmupCalls());
    }
    approvals(config, problems);
    SharedStateOptions shared = config.sharedState();
    if (shared.mode() == SharedStateOptions.Mode.CLIENT && shared.members().isEmpty()
        && shared.kubernetesServiceDns() == null) {
      problems.add("sharedState: client mode needs members or kubernetesServiceDns");
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(source, problems);
    }
    ApprovalTokens tokens = null;
    if (config.approvals().keyFile() != null) {
      try {
        tokens = ApprovalTokens.fromFile(Path.of(config.approvals().keyFile()));
      } catch (IOException | IllegalArgumentException e) {
        throw new ConfigException(source, List.of("approvals.keyFile: " + e.getMessage()));
      }
    }
    return new LoadedConfig(config, sha256(bytes), clock.instant(), tokens);
  }

  /** A relative path in the file is resolved against the file's directory. */
  private static String relativeTo(String source, String path) {
    if (path == null) {
      return null;
    }
    Path dir = Path.of(source).toAbsolutePath().getParent();
    return Path.of(path).isAbsolute() || dir == null ? path : dir.resolve(path).normalize().toString();
  }

  /** The quota notification's key and CA files, like every other path of the file. */
  private static Policy resolveNotify(Policy policy, String source) {
    Quotas quotas = policy.quotas();
    QuotaNotify notify = quotas == null ? null : quotas.notification();
    if (notify == null) {
      return policy;
    }
    QuotaNotify resolved = new QuotaNotify(notify.webhookUrl(), relativeTo(source, notify.secretFile()),
        relativeTo(source, notify.caFile()));
    return new Policy(policy.mode(), policy.killSwitch(), policy.budget(), policy.upstreams(),
        new Quotas(quotas.perSession(), quotas.perAgent(), quotas.ratePerMinute(), quotas.idleExpirySeconds(), resolved),
        policy.tools(), policy.retryBudget(), policy.intentWindowSeconds());
  }

  private static ApprovalOptions resolve(ApprovalOptions approvals, String source) {
    return approvals == null ? null : new ApprovalOptions(relativeTo(source, approvals.keyFile()));
  }

  private static AdminOptions resolveAdmin(AdminOptions admin, String source) {
    return admin == null ? null : new AdminOptions(admin.host(), admin.port(), relativeTo(source, admin.tokenFile()));
  }

  private static void approvals(SidecarConfig config, List<String> problems) {
    String keyFile = config.approvals().keyFile();
    var tools = config.policy().tools();
    for (int i = 0; i < tools.size(); i++) {
      if (tools.get(i).approval() == dev.toolgate.policy.model.Approval.HUMAN_REQUIRED
          && keyFile == null) {
        problems.add("tools[" + i + "].approval: human_required needs approvals.keyFile, the key"
            + " that verifies approval tokens");
      }
    }
    if (keyFile != null) {
      Path key = Path.of(keyFile);
      try {
        long size = Files.size(key);
        if (size < 32) {
          problems.add("approvals.keyFile: the key must hold at least 32 bytes, " + keyFile
              + " holds " + size);
        }
      } catch (IOException e) {
        problems.add("approvals.keyFile: cannot read " + keyFile);
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

  private static String describe(JsonMappingException e) {
    String path = path(e);
    if (e instanceof UnrecognizedPropertyException u) {
      String known =
          u.getKnownPropertyIds() == null
              ? ""
              : "; known fields: "
                  + new TreeSet<>(
                      u.getKnownPropertyIds().stream().map(Object::toString).toList());
      String parent = path.contains(".") ? path.substring(0, path.lastIndexOf('.')) : "";
      return (parent.isEmpty() ? "" : parent + ": ")
          + "unknown field '"
          + u.getPropertyName()
          + "'"
          + known;
    }
    if (e instanceof InvalidFormatException f) {
      String accepted = "";
      if (f.getTargetType() != null && f.getTargetType().isEnum()) {
        accepted =
            "; accepted: "
                + Arrays.stream(f.getTargetType().getEnumConstants())
                    .map(ConfigLoader::enumWireName)
                    .collect(Collectors.joining(", "));
      }
      return path + ": '" + f.getValue() + "' is not a valid " + typeName(f.getTargetType()) + accepted;
    }
    if (e instanceof ValueInstantiationException v && v.getCause() != null) {
      return path + ": " + v.getCause().getMessage();
    }
    String message = e.getOriginalMessage();
    int cut = message.indexOf('\n');
    return path + ": " + (cut < 0 ? message : message.substring(0, cut)) + location(e.getLocation());
  }

  private static String enumWireName(Object constant) {
    Enum<?> e = (Enum<?>) constant;
    try {
      com.fasterxml.jackson.annotation.JsonProperty p =
          e.getDeclaringClass()
              .getField(e.name())
              .getAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class);
      return p != null ? p.value() : e.toString();
    } catch (NoSuchFieldException ex) {
      return e.toString();
    }
  }

  private static String typeName(Class<?> type) {
    if (type == null) {
      return "value";
    }
    if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
      return "whole number";
    }
    if (type == Double.class || type == double.class) {
      return "number";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "boolean";
    }
    return type.getSimpleName();
  }

  private static String syntax(JsonProcessingException e) {
    String message = e.getOriginalMessage();
    int cut = message.indexOf('\n');
    return "not valid YAML"
        + location(e.getLocation())
        + ": "
        + (cut < 0 ? message : message.substring(0, cut));
  }

  private static String location(JsonLocation location) {
    if (location == null || location.getLineNr() < 0) {
      return "";
    }
    return " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
  }

  private static String path(JsonMappingException e) {
    StringBuilder sb = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        if (!sb.isEmpty()) {
          sb.append('.');
        }
        sb.append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        sb.append('[').append(ref.getIndex()).append(']');
      }
    }
    return sb.isEmpty() ? "(top level)" : sb.toString();
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JRE", e);
    }
  }
}
