package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The tool that finds an operation by its idempotency key after an ambiguous write. */
public record Lookup(
    @JsonPropertyDescription("The lookup tool's name, on the same upstream.") String tool,
    @JsonPropertyDescription("The argument that carries the key.") String argument) {}
