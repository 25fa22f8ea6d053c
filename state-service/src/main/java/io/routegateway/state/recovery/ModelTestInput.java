package io.routegateway.state.recovery;

/**
 * Body of a credential test; the body itself is optional.
 *
 * @param model the requested model name to test; null lets recovery-service choose (the first
 *     non-fallback mapping)
 */
public record ModelTestInput(String model) {}
