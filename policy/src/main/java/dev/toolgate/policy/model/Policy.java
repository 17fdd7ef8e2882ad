package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;
import java.util.Optional;

/**
 * The resilience policy of an agent's tool calls: the {@code ToolPolicy} spec, and the body of the
 * sidecar's configuration. Absent fields take the seed's defaults; {@link
 * dev.toolgate.policy.validation.PolicyValidator} says whether the whole is coherent.
 */
public record Policy(
    @JsonPropertyDescription("Enforce, or only compute and record decisions (shadow).") Mode mode,
    @JsonPropertyDescription("Blocks writes while reads keep working.") KillSwitch killSwitch,
    @JsonPropertyDescription("Time budgets from the outside in.") Budget budget,
    @JsonPropertyDescription("The MCP servers, by name.")
        @Required
        @Size(min = 1, max = MAX_UPSTREAMS)
        List<Upstream> upstreams,
    @JsonPropertyDescription("Per-session quotas.") Quotas quotas,
    @JsonPropertyDescription("The rules of the tools the policy names.") @Size(max = MAX_TOOLS)
        List<ToolRule> tools,
    @JsonPropertyDescription("The sidecar-wide limit on retries.") RetryBudgetPolicy retryBudget,
    @JsonPropertyDescription(
            "How long an identical request without an intent id counts as the same intent "
                + "(a relaunch).")
        @Min(1)
        @Max(Bounds.DAY_SECONDS)
        Integer intentWindowSeconds,
    @JsonPropertyDescription(
            "What becomes of a tool the policy does not name: allow (the default) serves it under "
                + "the defaults rule; deny leaves it out of tools/list and refuses its calls.")
        UnlistedTools unlistedTools,
    @JsonPropertyDescription(
            "The rule of the tools the policy does not name, under unlistedTools: allow.")
        UnlistedRule defaults) {

  /** A policy with the unlisted tools allowed under the derived defaults. */
  public Policy(
      Mode mode,
      KillSwitch killSwitch,
      Budget budget,
      List<Upstream> upstreams,
      Quotas quotas,
      List<ToolRule> tools,
      RetryBudgetPolicy retryBudget,
      Integer intentWindowSeconds) {
    this(
        mode,
        killSwitch,
        budget,
        upstreams,
        quotas,
        tools,
        retryBudget,
        intentWindowSeconds,
        null,
        null);
  }

  public static final int DEFAULT_INTENT_WINDOW_SECONDS = 300;
  public static final int MAX_UPSTREAMS = 16;
  public static final int MAX_TOOLS = 256;

  public Policy {
    retryBudget = retryBudget == null ? RetryBudgetPolicy.DEFAULT : retryBudget;
    intentWindowSeconds =
        intentWindowSeconds == null ? DEFAULT_INTENT_WINDOW_SECONDS : intentWindowSeconds;
    mode = mode == null ? Mode.ENFORCE : mode;
    killSwitch = killSwitch == null ? KillSwitch.OFF : killSwitch;
    budget = budget == null ? Budget.DEFAULT : budget;
    upstreams = upstreams == null ? List.of() : List.copyOf(upstreams);
    quotas = quotas == null ? Quotas.DEFAULT : quotas;
    tools = tools == null ? List.of() : List.copyOf(tools);
    unlistedTools = unlistedTools == null ? UnlistedTools.ALLOW : unlistedTools;
    defaults = defaults == null ? UnlistedRule.DERIVED : defaults;
  }

  /** This policy with other upstreams. */
  public Policy withUpstreams(List<Upstream> others) {
    return new Policy(
        mode,
        killSwitch,
        budget,
        others,
        quotas,
        tools,
        retryBudget,
        intentWindowSeconds,
        unlistedTools,
        defaults);
  }

  /** This policy with other quotas. */
  public Policy withQuotas(Quotas others) {
    return new Policy(
        mode,
        killSwitch,
        budget,
        upstreams,
        others,
        tools,
        retryBudget,
        intentWindowSeconds,
        unlistedTools,
        defaults);
  }

  /** Whether a call of this tool is refused because the policy does not name it. */
  public boolean refusesUnlisted(String upstream, String tool) {
    return unlistedTools == UnlistedTools.DENY && !names(upstream, tool);
  }

  public Optional<Upstream> upstream(String name) {
    return upstreams.stream().filter(u -> u.name().equals(name)).findFirst();
  }

  /** The rule for a tool on an upstream; the defaults rule when the policy does not name it. */
  public ToolRule rule(String upstream, String tool) {
    ToolRule named = named(upstream, tool);
    return named != null ? named : defaults.ruleFor(tool, upstream, this);
  }

  /** The mode a tool runs in: its own when set, else the policy's. */
  public Mode modeOf(ToolRule rule) {
    return rule.mode() != null ? rule.mode() : mode;
  }

  /** Whether the policy names this tool: unnamed tools share one metrics label. */
  public boolean names(String upstream, String tool) {
    return named(upstream, tool) != null;
  }

  /** The policy's own rule for the tool, or null: a loop, run on every call. */
  private ToolRule named(String upstream, String tool) {
    for (ToolRule rule : tools) {
      if (rule.name().equals(tool) && rule.upstream().equals(upstream)) {
        return rule;
      }
    }
    return null;
  }
}
