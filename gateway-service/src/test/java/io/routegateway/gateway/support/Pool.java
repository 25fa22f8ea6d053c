package io.routegateway.gateway.support;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.routegateway.core.access.AccessKeys;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.policy.FailurePolicy;
import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.ModelState;

/** Builders for the snapshots a test publishes to the state topics; ids are unique per call. */
public final class Pool {

    private Pool() {}

    public static String uid(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public static String secretOf(String credentialId) {
        return "upstream-secret-" + credentialId;
    }

    public static Cred credential(String id) {
        return new Cred(id);
    }

    public static final class Cred {
        private final String id;
        private Platform platform = Platform.OPENAI;
        private CredentialKind kind = CredentialKind.API;
        private final List<ModelMapping> mappings = new ArrayList<>();
        private FailurePolicy policy = new FailurePolicy(2, 20, 10, true, 10, true);
        private List<String> groups = List.of();
        private int priority;
        private long version = 1;
        private String baseUrl;
        private AccountState account = AccountState.HEALTHY;
        private final List<ModelState> models = new ArrayList<>();
        private boolean enabled = true;

        private Cred(String id) {
            this.id = id;
            this.baseUrl = MockUpstream.get().baseUrl(id);
        }

        public Cred platform(Platform value) {
            this.platform = value;
            return this;
        }

        public Cred official() {
            this.kind = CredentialKind.OFFICIAL;
            return this;
        }

        public Cred maps(String from, String to) {
            mappings.add(new ModelMapping(from, to));
            return this;
        }

        public Cred serves(String... models) {
            for (String model : models) {
                mappings.add(new ModelMapping(model, model));
            }
            return this;
        }

        public Cred policy(int retryCount, int retryIntervalMs, boolean cooldown, int cooldownSeconds) {
            this.policy = new FailurePolicy(retryCount, retryIntervalMs, 10, cooldown, cooldownSeconds, true);
            return this;
        }

        public Cred groups(String... ids) {
            this.groups = List.of(ids);
            return this;
        }

        public Cred priority(int value) {
            this.priority = value;
            return this;
        }

        public Cred version(long value) {
            this.version = value;
            return this;
        }

        public Cred baseUrl(String value) {
            this.baseUrl = value;
            return this;
        }

        public Cred account(AccountState value) {
            this.account = value;
            return this;
        }

        public Cred model(ModelState row) {
            models.add(row);
            return this;
        }

        public Cred disabled() {
            this.enabled = false;
            return this;
        }

        public CredentialSnapshot build(SecretBox box) {
            return new CredentialSnapshot(
                    id,
                    version,
                    "name-" + id,
                    platform,
                    kind,
                    baseUrl,
                    box.seal(new SecretBox.Binding(id, platform.wire(), baseUrl), secretOf(id)),
                    mappings,
                    policy,
                    enabled,
                    false,
                    true,
                    priority,
                    WeightMode.AUTO,
                    50,
                    null,
                    groups,
                    account,
                    models,
                    Instant.now());
        }
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

    public static String plaintext(String keyId) {
        return "rk-test-" + keyId;
    }
}
