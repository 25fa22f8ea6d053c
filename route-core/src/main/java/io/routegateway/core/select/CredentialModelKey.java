package io.routegateway.core.select;

/**
 * The key of the model state: the (credential id, model key) pair, never the model alone — two
 * accounts can map the same requested model to different upstream names.
 */
public record CredentialModelKey(String credentialId, String modelKey) {}
