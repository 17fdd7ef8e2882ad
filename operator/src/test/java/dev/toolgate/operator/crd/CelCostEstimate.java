package dev.toolgate.operator.crd;

import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * An upper bound of a rule's cost under the Kubernetes CEL cost model (cel-go's static estimator as
 * the API server configures it), from the schema's bounds: an identifier or a field costs 1, a
 * presence test 1, a comparison or arithmetic 1, a string comparison 1 plus a tenth of the longer
 * string's bytes (a {@code maxLength} counts 4 bytes a character, an enum its longest value), a
 * logical operator and a conditional only their operands (the dearer branch), a macro over a list
 * its range, init and result plus {@code maxItems} times its condition and step. Anything else (a
 * regex, a list literal, an unbounded list or string) is refused rather than guessed, so a new rule
 * cannot slip under the limits by being unknown here.
 */
final class CelCostEstimate {

  /** The API server's limit on one rule's estimated cost. */
  static final long PER_RULE_LIMIT = 10_000_000;

  /** The API server's limit on the sum of every rule's cost times its node's cardinality. */
  static final long PER_CRD_LIMIT = 100_000_000;

  /** The API server's limit on one evaluation at run time. */
  static final long PER_CALL_LIMIT = 1_000_000;

  private static final CelCompiler PARSER =
      CelCompilerFactory.standardCelCompilerBuilder()
          .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
          .build();

  private static final Set<String> UNIT_COST =
      Set.of(
          "_<_",
          "_<=_",
          "_>_",
          "_>=_",
          "_+_",
          "_-_",
          "_*_",
          "_/_",
          "_%_",
          "!_",
          "-_",
          "size",
          "@not_strictly_false");

  private static final Set<String> STRING_TRAVERSAL =
      Set.of("_==_", "_!=_", "startsWith", "endsWith", "contains");

  private CelCostEstimate() {}

  /** The rule's worst-case cost, {@code self} being a value of {@code node}. */
  static long of(String rule, JSONSchemaProps node) {
    try {
      CelExpr expr = PARSER.parse(rule).getAst().getExpr();
      Map<String, JSONSchemaProps> scope = new HashMap<>();
      scope.put("self", node);
      return cost(expr, scope);
    } catch (dev.cel.common.CelValidationException e) {
      throw new IllegalArgumentException("rule does not parse: " + rule, e);
    }
  }

  private static long cost(CelExpr e, Map<String, JSONSchemaProps> scope) {
    return switch (e.getKind()) {
      case CONSTANT -> 0;
      case IDENT -> 1;
      case SELECT -> 1 + cost(e.select().operand(), scope);
      case CALL -> call(e, scope);
      case COMPREHENSION -> comprehension(e, scope);
      default -> throw new IllegalArgumentException("no estimate for " + e.getKind() + ": " + e);
    };
  }

  private static long call(CelExpr e, Map<String, JSONSchemaProps> scope) {
    CelExpr.CelCall call = e.call();
    String function = call.function();
    long operands = call.target().map(t -> cost(t, scope)).orElse(0L);
    for (CelExpr arg : call.args()) {
      operands += cost(arg, scope);
    }
    if (function.equals("_&&_") || function.equals("_||_")) {
      return operands;
    }
    if (function.equals("_?_:_")) {
      return cost(call.args().get(0), scope)
          + Math.max(cost(call.args().get(1), scope), cost(call.args().get(2), scope));
    }
    if (UNIT_COST.contains(function)) {
      return operands + 1;
    }
    if (STRING_TRAVERSAL.contains(function)) {
      long longest = 0;
      for (CelExpr operand : call.target().isPresent() ? concat(call) : call.args()) {
        longest = Math.max(longest, stringBytes(operand, scope));
      }
      return operands + 1 + (long) Math.ceil(0.1 * longest);
    }
    throw new IllegalArgumentException("no estimate for function " + function + " in " + e);
  }

  private static java.util.List<CelExpr> concat(CelExpr.CelCall call) {
    java.util.List<CelExpr> all = new java.util.ArrayList<>();
    all.add(call.target().orElseThrow());
    all.addAll(call.args());
    return all;
  }

  private static long comprehension(CelExpr e, Map<String, JSONSchemaProps> scope) {
    CelExpr.CelComprehension c = e.comprehension();
    JSONSchemaProps range = schema(c.iterRange(), scope);
    if (range == null || !"array".equals(range.getType()) || range.getMaxItems() == null) {
      throw new IllegalArgumentException("a macro over an unbounded list: " + c.iterRange());
    }
    Map<String, JSONSchemaProps> inner = new HashMap<>(scope);
    inner.put(c.iterVar(), range.getItems().getSchema());
    inner.put(c.accuVar(), null);
    return cost(c.iterRange(), scope)
        + cost(c.accuInit(), scope)
        + range.getMaxItems() * (cost(c.loopCondition(), inner) + cost(c.loopStep(), inner))
        + cost(c.result(), inner);
  }

  /** The schema of a value: {@code self}, a loop variable, or a field of one. */
  private static JSONSchemaProps schema(CelExpr e, Map<String, JSONSchemaProps> scope) {
    return switch (e.getKind()) {
      case IDENT -> scope.get(e.ident().name());
      case SELECT -> {
        if (e.select().testOnly()) {
          yield null;
        }
        JSONSchemaProps operand = schema(e.select().operand(), scope);
        yield operand == null || operand.getProperties() == null
            ? null
            : operand.getProperties().get(e.select().field());
      }
      default -> null;
    };
  }

  /** The most bytes a string operand holds; 0 for one that is not a string. */
  private static long stringBytes(CelExpr e, Map<String, JSONSchemaProps> scope) {
    if (e.getKind() == CelExpr.ExprKind.Kind.CONSTANT) {
      CelConstant constant = e.constant();
      return constant.getKind() == CelConstant.Kind.STRING_VALUE
          ? constant.stringValue().length()
          : 0;
    }
    JSONSchemaProps s = schema(e, scope);
    if (s == null || !"string".equals(s.getType())) {
      return 0;
    }
    if (s.getMaxLength() != null) {
      return 4 * s.getMaxLength();
    }
    if (s.getEnum() != null && !s.getEnum().isEmpty()) {
      return s.getEnum().stream().mapToLong(v -> String.valueOf(v).length()).max().orElse(0);
    }
    throw new IllegalArgumentException("a string without maxLength or enum: " + e);
  }
}
