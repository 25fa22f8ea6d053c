package io.routegateway.core.select;

/**
 * A soft-affinity key: a 128-bit hash of (access key id, client protocol, stable prompt prefix).
 * Built by {@link Affinity#key}; opaque otherwise.
 */
public record AffinityKey(long high, long low) {}
