package io.routegateway.common.upstream;

/**
 * A connection the {@link UpstreamClient} did not open: the upstream's host resolved to an address
 * the host policy refuses (fired as a CDI event for the services' metrics). Carries no secret, no
 * path and no query: the host name, the address and the reason only.
 *
 * @param reason the policy's reason ({@code link_local}, {@code metadata}, {@code own_port}, {@code
 *     cleartext})
 * @param modelTest whether a model test (recovery-service's probe) asked for it
 */
public record AddressRefused(String host, String address, String reason, boolean modelTest) {}
