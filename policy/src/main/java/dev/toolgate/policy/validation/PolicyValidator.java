package dev.toolgate.policy.validation;

import dev.toolgate.policy.model.Backoff;
import dev.toolgate.policy.model.BreakerPolicy;
import dev.toolgate.policy.model.Budget;
import dev.toolgate.policy.model.Effect;
import dev.toolgate.policy.model.Fallback;
import dev.toolgate.policy.model.IdempotencyPolicy;
import dev.toolgate.policy.model.Policy;
import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.model.RetryPolicy;
import dev.toolgate.policy.model.ToolRule;
import dev.toolgate.policy.model.Upstream;
import dev.toolgate.policy.model.UpstreamAuth;
import dev.toolgate.policy.outcome.ResultClass;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks that a policy is coherent as a whole: the rules a schema cannot say (nested budgets, a
 * retried write needs an idempotency lookup, ...). Every violation names its field and the bad
 * value. The operator and the sidecar both call it: one source of truth for what is valid.
 */
public final class PolicyValidator {

  private static final Pattern UPSTREAM_NAME = Pattern.compile(Upstream.NAME_PATTERN);

  private static final int MAX_ATTEMPTS_LIMIT = RetryPolicy.MAX_ATTEMPTS;

  /** Key components that are not JSON pointers into the arguments. */
  public static final Set<String> NAMED_KEY_COMPONENTS =
      Set.of("intent_id", "approval_id", "tool", "session_id");

  private PolicyValidator() {}

  /** Returns the policy when valid; throws with every violation otherwise. */
  public static Policy requireValid(Policy policy) {
    List<Violation> violations = validate(policy);
    if (!violations.isEmpty()) {
      throw new InvalidPolicyException(violations);
    }
    return policy;
  }

  public static List<Violation> validate(Policy policy) {
    List<Violation> out = new ArrayList<>();
    rules(policy, out);
    SchemaBounds.check(policy).stream()
        .filter(bound -> out.stream().noneMatch(v -> v.field().equals(bound.field())))
        .forEach(out::add);
    return out;
  }

  private static void rules(Policy policy, List<Violation> out) {
    Set<String> upstreamNames = upstreams(policy.upstreams(), out);
    budget(policy.budget(), out);
    quotas(policy.quotas(), out);
    if (policy.intentWindowSeconds() < 1) {
      out.add(
          new Violation(
              "intentWindowSeconds", "must be >= 1, was " + policy.intentWindowSeconds()));
    }
    var rb = policy.retryBudget();
    if (!(rb.ratio() >= 0 && rb.ratio() <= 1)) {
      out.add(new Violation("retryBudget.ratio", "must be in [0, 1], was " + rb.ratio()));
    }
    if (rb.minRetriesPerSecond() < 0) {
      out.add(
          new Violation(
              "retryBudget.minRetriesPerSecond", "must be >= 0, was " + rb.minRetriesPerSecond()));
    }
    if (rb.windowSeconds() < 1) {
      out.add(
          new Violation("retryBudget.windowSeconds", "must be >= 1, was " + rb.windowSeconds()));
    }
    if (policy.defaults().breaker() != null) {
      breaker("defaults.breaker", Effect.NON_IDEMPOTENT_WRITE, policy.defaults().breaker(), out);
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < policy.tools().size(); i++) {
      tool("tools[" + i + "]", policy.tools().get(i), upstreamNames, seen, out);
    }
  }

  private static Set<String> upstreams(List<Upstream> upstreams, List<Violation> out) {
    Set<String> names = new HashSet<>();
    if (upstreams.isEmpty()) {
      out.add(new Violation("upstreams", "at least one upstream is required"));
    }
    for (int i = 0; i < upstreams.size(); i++) {
      String at = "upstreams[" + i + "]";
      Upstream upstream = upstreams.get(i);
      if (upstream.name() == null || !UPSTREAM_NAME.matcher(upstream.name()).find()) {
        out.add(
            new Violation(
                at + ".name",
                "must match "
                    + UPSTREAM_NAME.pattern()
                    + " (a URL path segment), was "
                    + quoted(upstream.name())));
      } else if (!names.add(upstream.name())) {
        out.add(new Violation(at + ".name", "duplicate upstream name " + quoted(upstream.name())));
      }
      httpUrl(at + ".url", upstream.url(), false, out);
      if (upstream.auth() != null) {
        auth(at + ".auth", upstream.url(), upstream.auth(), out);
      }
      relayPaths(at + ".relayPaths", upstream.relayPaths(), out);
    }
    return names;
  }

  /** A header name is an HTTP token; one the sidecar manages itself is not a credential's. */
  private static final Pattern HEADER_NAME = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}");

  private static void auth(String at, String url, UpstreamAuth auth, List<Violation> out) {
    if (!auth.sendsHeader() && !auth.presentsCertificate() && auth.trustedCaFile() == null) {
      out.add(
          new Violation(
              at,
              "give bearerTokenFile, headerName with headerValueFile, or clientCertificateFile"
                  + " with clientKeyFile"));
      return;
    }
    if (auth.presentsCertificate()) {
      certificate(at, url, auth, out);
    }
    if (auth.trustedCaFile() != null && url != null && !url.startsWith("https://")) {
      out.add(
          new Violation(
              at + ".trustedCaFile",
              "trusted authorities are read over TLS only; the upstream's url must be https, was "
                  + quoted(Redacted.url(url))));
    }
    if (!auth.sendsHeader()) {
      return;
    }
    boolean bearer = auth.bearerTokenFile() != null;
    boolean header = auth.headerName() != null || auth.headerValueFile() != null;
    if (bearer == header) {
      out.add(
          new Violation(
              at, "give either bearerTokenFile or headerName with headerValueFile, not both"));
      return;
    }
    if (header) {
      if (auth.headerName() == null || !HEADER_NAME.matcher(auth.headerName()).matches()) {
        out.add(
            new Violation(
                at + ".headerName",
                "must be an HTTP header name, was " + quoted(auth.headerName())));
      } else if (auth.headerName().regionMatches(true, 0, "mcp-", 0, 4)
          || auth.headerName().regionMatches(true, 0, "toolgate-", 0, 9)
          || auth.headerName().equalsIgnoreCase("host")
          || auth.headerName().equalsIgnoreCase("content-length")) {
        out.add(
            new Violation(
                at + ".headerName",
                "the sidecar manages " + auth.headerName() + " itself; name another header"));
      }
      if (auth.headerValueFile() == null || auth.headerValueFile().isBlank()) {
        out.add(new Violation(at + ".headerValueFile", "the header's value file is required"));
      }
    } else if (auth.bearerTokenFile().isBlank()) {
      out.add(new Violation(at + ".bearerTokenFile", "must name a file"));
    }
  }

  private static void certificate(String at, String url, UpstreamAuth auth, List<Violation> out) {
    if (auth.clientCertificateFile() == null || auth.clientCertificateFile().isBlank()) {
      out.add(
          new Violation(
              at + ".clientCertificateFile", "is required with clientKeyFile; name a PEM file"));
    }
    if (auth.clientKeyFile() == null || auth.clientKeyFile().isBlank()) {
      out.add(
          new Violation(
              at + ".clientKeyFile", "is required with clientCertificateFile; name a PEM file"));
    }
    if (url != null && !url.startsWith("https://")) {
      out.add(
          new Violation(
              at + ".clientCertificateFile",
              "a client certificate is presented over TLS only; the upstream's url must be"
                  + " https, was "
                  + quoted(Redacted.url(url))));
    }
  }

  private static final int MAX_RELAY_PATHS = Upstream.MAX_RELAY_PATHS;

  private static void relayPaths(String at, List<String> paths, List<Violation> out) {
    if (paths.size() > MAX_RELAY_PATHS) {
      out.add(new Violation(at, "at most " + MAX_RELAY_PATHS + " paths, was " + paths.size()));
    }
    for (int i = 0; i < paths.size(); i++) {
      String p = paths.get(i);
      boolean plain =
          p != null
              && p.length() > 1
              && p.length() <= Upstream.MAX_RELAY_PATH_LENGTH
              && p.startsWith("/")
              && !p.contains("?")
              && !p.contains("%")
              && !p.contains("\\")
              && !p.contains("//")
              && !(p + "/").contains("/./")
              && !(p + "/").contains("/../");
      if (!plain) {
        out.add(
            new Violation(
                at + "[" + i + "]",
                "must be a plain absolute path (no query, '%', '\\', '//', '.' or '..'"
                    + " segment, at most "
                    + Upstream.MAX_RELAY_PATH_LENGTH
                    + " characters), was "
                    + quoted(p)));
      }
    }
  }

  private static void budget(Budget b, List<Violation> out) {
    positive("budget.journeyMs", b.journeyMs(), out);
    positive("budget.agentMs", b.agentMs(), out);
    positive("budget.transportMs", b.transportMs(), out);
    positive("budget.backendMs", b.backendMs(), out);
    if (b.reserveForFinalResponseMs() < 0) {
      out.add(
          new Violation(
              "budget.reserveForFinalResponseMs",
              "must be >= 0, was " + b.reserveForFinalResponseMs()));
    }
    nested("budget.agentMs", b.agentMs(), "budget.journeyMs", b.journeyMs(), out);
    if (b.agentMs() - b.reserveForFinalResponseMs() < b.transportMs()) {
      out.add(
          new Violation(
              "budget.transportMs",
              "must leave the agent its reserve: transportMs ("
                  + b.transportMs()
                  + ") must be <= agentMs ("
                  + b.agentMs()
                  + ") - reserveForFinalResponseMs ("
                  + b.reserveForFinalResponseMs()
                  + ")"));
    }
    nested("budget.backendMs", b.backendMs(), "budget.transportMs", b.transportMs(), out);
  }

  private static void nested(
      String inner, long innerMs, String outer, long outerMs, List<Violation> out) {
    if (innerMs >= outerMs) {
      out.add(
          new Violation(
              inner,
              "an inner timeout must expire before the outer one: "
                  + inner
                  + " ("
                  + innerMs
                  + ") must be < "
                  + outer
                  + " ("
                  + outerMs
                  + ")"));
    }
  }

  private static void quotas(Quotas q, List<Violation> out) {
    if (q.perSession().read() < 0) {
      out.add(
          new Violation("quotas.perSession.read", "must be >= 0, was " + q.perSession().read()));
    }
    if (q.perSession().write() < 0) {
      out.add(
          new Violation("quotas.perSession.write", "must be >= 0, was " + q.perSession().write()));
    }
    if (q.perAgent() != null && (q.perAgent().read() < 0 || q.perAgent().write() < 0)) {
      out.add(
          new Violation(
              "quotas.perAgent",
              "read and write must be >= 0, were "
                  + q.perAgent().read()
                  + " and "
                  + q.perAgent().write()));
    }
    if (q.ratePerMinute() < 1) {
      out.add(new Violation("quotas.ratePerMinute", "must be >= 1, was " + q.ratePerMinute()));
    }
    if (q.idleExpirySeconds() < 1) {
      out.add(
          new Violation("quotas.idleExpirySeconds", "must be >= 1, was " + q.idleExpirySeconds()));
    }
    if (q.notification() != null && q.notification().webhookUrl() != null) {
      httpUrl("quotas.notify.webhookUrl", q.notification().webhookUrl(), true, out);
      if (q.notification().secretFile() == null) {
        out.add(
            new Violation(
                "quotas.notify.secretFile", "a webhook needs a secret to sign its notifications"));
      }
    }
  }

  private static void tool(
      String at, ToolRule rule, Set<String> upstreams, Set<String> seen, List<Violation> out) {
    if (rule.name() == null || rule.name().isBlank()) {
      out.add(new Violation(at + ".name", "a tool name is required"));
    }
    if (rule.upstream() == null || !upstreams.contains(rule.upstream())) {
      out.add(
          new Violation(
              at + ".upstream",
              "must name one of the upstreams " + upstreams + ", was " + quoted(rule.upstream())));
    }
    if (rule.name() != null && !seen.add(rule.upstream() + "/" + rule.name())) {
      out.add(
          new Violation(
              at + ".name",
              "duplicate rule for tool " + quoted(rule.name()) + " on " + quoted(rule.upstream())));
    }
    retry(at, rule, out);
    if (rule.shareConcurrentCalls() && rule.effect() != Effect.EXPENSIVE_READ) {
      out.add(
          new Violation(
              at + ".shareConcurrentCalls",
              "only an expensive_read shares concurrent calls; the tool is "
                  + rule.effect().wireName()));
    }
    if (rule.breaker() != null) {
      breaker(at + ".breaker", rule.effect(), rule.breaker(), out);
    }
    if (rule.idempotency() != null) {
      idempotency(at + ".idempotency", rule.idempotency(), out);
    }
  }

  private static void retry(String at, ToolRule rule, List<Violation> out) {
    RetryPolicy retry = rule.retry();
    String path = at + ".retry";
    if (retry.maxAttempts() < 1 || retry.maxAttempts() > MAX_ATTEMPTS_LIMIT) {
      out.add(
          new Violation(
              path + ".maxAttempts",
              "must be in [1, " + MAX_ATTEMPTS_LIMIT + "], was " + retry.maxAttempts()));
    }
    for (int i = 0; i < retry.retryOn().size(); i++) {
      ResultClass c = retry.retryOn().get(i);
      if (c == null || !c.isBackendFailure()) {
        out.add(
            new Violation(
                path + ".retryOn[" + i + "]",
                "only transient failures may be retried, not "
                    + (c == null ? "null" : quoted(c.wireName()))));
      }
    }
    Backoff backoff = retry.backoff();
    positive(path + ".backoff.initialMs", backoff.initialMs(), out);
    if (backoff.maxMs() < backoff.initialMs()) {
      out.add(
          new Violation(
              path + ".backoff.maxMs",
              "must be >= initialMs (" + backoff.initialMs() + "), was " + backoff.maxMs()));
    }
    boolean retried = retry.maxAttempts() > 1;
    if (retried && rule.effect() == Effect.NON_IDEMPOTENT_WRITE) {
      out.add(
          new Violation(
              path + ".maxAttempts",
              "a non_idempotent_write is never retried automatically: maxAttempts must be 1, was "
                  + retry.maxAttempts()));
    }
    if (retried
        && rule.effect() == Effect.IDEMPOTENT_WRITE
        && (rule.idempotency() == null || rule.idempotency().lookup() == null)) {
      out.add(
          new Violation(
              path + ".maxAttempts",
              "a write retried automatically (maxAttempts "
                  + retry.maxAttempts()
                  + ") needs idempotency.lookup to find its operation after an ambiguous timeout"));
    }
  }

  private static void breaker(String at, Effect effect, BreakerPolicy b, List<Violation> out) {
    atLeastOne(at + ".windowSeconds", b.windowSeconds(), out);
    atLeastOne(at + ".minimumCalls", b.minimumCalls(), out);
    ratio(at + ".failureRatio", b.failureRatio(), out);
    ratio(at + ".slowCallRatio", b.slowCallRatio(), out);
    positive(at + ".slowCallMs", b.slowCallMs(), out);
    atLeastOne(at + ".openSeconds", b.openSeconds(), out);
    atLeastOne(at + ".halfOpen.probeCalls", b.halfOpen().probeCalls(), out);
    atLeastOne(at + ".halfOpen.concurrentProbes", b.halfOpen().concurrentProbes(), out);
    if (b.halfOpen().concurrentProbes() > b.halfOpen().probeCalls()) {
      out.add(
          new Violation(
              at + ".halfOpen.concurrentProbes",
              "must be <= probeCalls ("
                  + b.halfOpen().probeCalls()
                  + "), was "
                  + b.halfOpen().concurrentProbes()));
    }
    if (b.fallback() == Fallback.READ_ONLY_DEGRADED_RESPONSE && effect.isWrite()) {
      out.add(
          new Violation(
              at + ".fallback",
              "writes never get a fallback; read_only_degraded_response is for reads, the tool is "
                  + effect.wireName()));
    }
  }

  private static void idempotency(String at, IdempotencyPolicy idem, List<Violation> out) {
    for (int i = 0; i < idem.keyComponents().size(); i++) {
      String component = idem.keyComponents().get(i);
      boolean pointer = component != null && component.startsWith("/");
      if (!pointer && !NAMED_KEY_COMPONENTS.contains(component)) {
        out.add(
            new Violation(
                at + ".keyComponents[" + i + "]",
                "must be a JSON pointer into the arguments (\"/job_id\") or one of "
                    + NAMED_KEY_COMPONENTS.stream().sorted().toList()
                    + ", was "
                    + quoted(component)));
      }
    }
    if (idem.lookup() != null) {
      if (idem.lookup().tool() == null || idem.lookup().tool().isBlank()) {
        out.add(new Violation(at + ".lookup.tool", "the lookup tool's name is required"));
      }
      if (idem.lookup().argument() == null || idem.lookup().argument().isBlank()) {
        out.add(
            new Violation(
                at + ".lookup.argument", "the argument that carries the key is required"));
      }
    }
  }

  private static void httpUrl(String at, String url, boolean httpsOnly, List<Violation> out) {
    try {
      URI uri = new URI(url == null ? "" : url);
      String scheme = uri.getScheme();
      boolean schemeOk =
          httpsOnly ? "https".equals(scheme) : "http".equals(scheme) || "https".equals(scheme);
      if (!schemeOk || uri.getHost() == null) {
        out.add(
            new Violation(
                at,
                "must be an absolute "
                    + (httpsOnly ? "https" : "http(s)")
                    + " URL with a host, was "
                    + quoted(Redacted.url(url))));
      }
    } catch (URISyntaxException e) {
      out.add(
          new Violation(at, "is not a URL (" + e.getReason() + "): " + quoted(Redacted.url(url))));
    }
  }

  private static void positive(String at, long value, List<Violation> out) {
    if (value <= 0) {
      out.add(new Violation(at, "must be > 0, was " + value));
    }
  }

  private static void atLeastOne(String at, int value, List<Violation> out) {
    if (value < 1) {
      out.add(new Violation(at, "must be >= 1, was " + value));
    }
  }

  private static void ratio(String at, double value, List<Violation> out) {
    if (!(value > 0 && value <= 1)) {
      out.add(new Violation(at, "must be in (0, 1], was " + value));
    }
  }

  private static String quoted(String s) {
    return s == null ? "null" : "'" + s + "'";
  }
}
