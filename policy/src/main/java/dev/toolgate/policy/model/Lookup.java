package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** The tool that finds an operation by its idempotency key after an ambiguous write. */
public record Lookup(
    @JsonPropertyDescription("The lookup tool's name, on the same upstream.")
        @Required
        @Size(min = 1, max = ToolRule.MAX_NAME_LENGTH)
        String tool,
    @JsonPropertyDescription("The argument that carries the key.")
        @Required
        @Size(min = 1, max = ToolRule.MAX_NAME_LENGTH)
        String argument) {}
