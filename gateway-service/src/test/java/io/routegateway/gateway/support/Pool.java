package io.routegateway.gateway.support;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.routegateway.core.access.AccessKeys;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.event.TeamSnapshot;
import io.routegateway.core.limits.Limits;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.testing.CredentialBuilder;

/** Builders for the snapshots a test publishes to the state topics; ids are unique per call. */
public final class Pool {

    private Pool() {}

    public static String uid(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public static String secretOf(String credentialId) {
        return "upstream-secret-" + credentialId;
    }

    /** The shared builder with the gateway tests' defaults: the mock upstream, a sealed {@link #secretOf} secret. */
    public static CredentialBuilder credential(String id) {
        return CredentialBuilder.credential(id)
                .baseUrl(MockUpstream.get().baseUrl(id))
                .secret(secretOf(id))
                .policy(2, 20, true, 10)
                .weight(50);
    }

    public static GroupSnapshot group(String id, boolean affinity, String... exposed) {
        return new GroupSnapshot(
                id, 1, "group-" + id, true, WeightMode.AUTO, 0, List.of(exposed), affinity, Instant.now());
    }

    /** A key whose plaintext is {@link #plaintext(String)}. */
    public static AccessKeySnapshot key(String id, List<String> groups) {
        return key(id, groups, List.of(), List.of(), true, null, 1);
    }

    public static AccessKeySnapshot key(
            String id,
            List<String> groups,
            List<Protocol> protocols,
            List<String> models,
            boolean enabled,
            Instant expiresAt,
            long version) {
        return new AccessKeySnapshot(
                id,
                version,
                "key-" + id,
                AccessKeys.hash(plaintext(id)),
                "rk-" + id.substring(0, 3),
                enabled,
                expiresAt,
                protocols,
                models,
                groups,
                Instant.now());
    }

    /** A key of {@code teamId} (null = none) with limits of its own, whose plaintext is {@link #plaintext(String)}. */
    public static AccessKeySnapshot key(String id, List<String> groups, String teamId, Limits limits) {
        return new AccessKeySnapshot(
                id,
                1,
                "key-" + id,
                AccessKeys.hash(plaintext(id)),
                "rk-" + id.substring(0, 3),
                true,
                null,
                List.of(),
                List.of(),
                groups,
                Instant.now(),
                teamId,
                limits);
    }

    public static TeamSnapshot team(String id, Limits limits, int weight) {
        return new TeamSnapshot(id, 1, "team-" + id, limits, weight, Instant.now());
    }

    public static String plaintext(String keyId) {
        return "rk-test-" + keyId;
    }
}
