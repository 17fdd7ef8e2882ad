package dev.toolgate.policy.model;

/**
 * The tool that finds an operation by its idempotency key after an ambiguous write.
 *
 * @param tool the lookup tool's name, on the same upstream
 * @param argument the argument that carries the key
 */
public record Lookup(String tool, String argument) {}
