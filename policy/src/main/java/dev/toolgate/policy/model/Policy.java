package dev.toolgate.policy.model;

import java.util.List;
import java.util.Optional;

/**
 * The resilience policy of an agent's tool calls: the {@code ToolPolicy} spec, and the body of the
 * sidecar's configuration. Absent fields take the seed's defaults; {@link
 * dev.toolgate.policy.validation.PolicyValidator} says whether the whole is coherent.
 *
 * @param mode enforce, or only compute and record decisions (shadow)
 * @param killSwitch blocks writes while reads keep working
 * @param budget time budgets from the outside in
 * @param upstreams the MCP servers, by name
 * @param quotas per-session quotas
 * @param tools the rules of the tools the policy names
 * @param retryBudget the sidecar-wide limit on retries
 * @param intentWindowSeconds how long an identical request without an intent id counts as the
 *     same intent (a relaunch)
 */
public record Policy(
    Mode mode,
    KillSwitch killSwitch,
    Budget budget,
    List<Upstream> upstreams,
    Quotas quotas,
    List<ToolRule> tools,
    RetryBudgetPolicy retryBudget,
    Integer intentWindowSeconds) {

  public static final int DEFAULT_INTENT_WINDOW_SECONDS = 300;

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
  }

  public Optional<Upstream> upstream(String name) {
    return upstreams.stream().filter(u -> u.name().equals(name)).findFirst();
  }

  /** The rule for a tool on an upstream; the safe default when the policy does not name it. */
  public ToolRule rule(String upstream, String tool) {
    ToolRule named = named(upstream, tool);
    return named != null ? named : ToolRule.unlisted(tool, upstream);
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
