package io.routegateway.core.select;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.routegateway.core.access.AccessKeys;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.model.BridgePolicy;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.state.ModelState;
import io.routegateway.core.state.ModelStatus;

/** Builders for the snapshots selection reads; defaults are a healthy api key in group {@code g1}. */
public final class Fixtures {

    public static final Instant NOW = Instant.parse("2026-09-02T12:00:00Z");

    /** A rule under which every credential serves every protocol natively (the spec's steps know no protocols). */
    public static final ProtocolRule EVERY_CREDENTIAL = new ProtocolRule() {
        @Override
        public Serving serving(CredentialSnapshot credential, Protocol protocol) {
            return Serving.NATIVE;
        }

        @Override
        public boolean isNative(CredentialSnapshot credential, Protocol protocol) {
            return true;
        }
    };

    private Fixtures() {}

    public static Cred cred(String id) {
        return new Cred(id);
    }

    public static Group group(String id) {
        return new Group(id);
    }

    public static Key key(String id) {
        return new Key(id);
    }

    public static Instant in(long seconds) {
        return NOW.plusSeconds(seconds);
    }

    public static final class Cred {
        private final String id;
        private Platform platform = Platform.OPENAI;
        private CredentialKind kind = CredentialKind.API;
        private final List<ModelMapping> mappings = new ArrayList<>();
        private boolean enabled = true;
        private boolean archived;
        private boolean inPool = true;
        private int priority;
        private WeightMode weightMode = WeightMode.AUTO;
        private int weight;
        private Long quota;
        private List<String> groups = List.of("g1");
        private AccountStatus status = AccountStatus.OK;
        private Instant cooldownUntil;
        private Instant nextRetryAt;
        private final List<ModelState> rows = new ArrayList<>();
        private long version = 1;

        private Cred(String id) {
            this.id = id;
        }

        public Cred maps(String from, String to) {
            mappings.add(new ModelMapping(from, to));
            return this;
        }

        /** Serves {@code model} under the same upstream name. */
        public Cred serves(String... models) {
            for (String model : models) {
                mappings.add(new ModelMapping(model, model));
            }
            return this;
        }

        public Cred official(Platform onPlatform) {
            this.kind = CredentialKind.OFFICIAL;
            this.platform = onPlatform;
            return this;
        }

        public Cred platform(Platform value) {
            this.platform = value;
            return this;
        }

        public Cred kind(CredentialKind value) {
            this.kind = value;
            return this;
        }

        public Cred disabled() {
            this.enabled = false;
            return this;
        }

        public Cred archived() {
            this.archived = true;
            return this;
        }

        public Cred notInPool() {
            this.inPool = false;
            return this;
        }

        public Cred priority(int value) {
            this.priority = value;
            return this;
        }

        public Cred manualWeight(int value) {
            this.weightMode = WeightMode.MANUAL;
            this.weight = value;
            return this;
        }

        public Cred quota(Long value) {
            this.quota = value;
            return this;
        }

        public Cred groups(String... ids) {
            this.groups = List.of(ids);
            return this;
        }

        public Cred status(AccountStatus value) {
            this.status = value;
            return this;
        }

        /** Account-level cooldown: both timestamps, as the spec writes them. */
        public Cred accountCooling(Instant until) {
            this.cooldownUntil = until;
            this.nextRetryAt = until;
            return this;
        }

        public Cred nextRetryAt(Instant at) {
            this.nextRetryAt = at;
            return this;
        }

        public Cred cooldownUntil(Instant at) {
            this.cooldownUntil = at;
            return this;
        }

        public Cred modelCooling(String modelKey, Instant until) {
            rows.add(new ModelState(
                    modelKey, ModelStatus.OK, 1, until, 1, null, "upstream_status", "429", null, NOW, NOW));
            return this;
        }

        public Cred paused(String modelKey) {
            rows.add(ModelState.created(modelKey, ModelStatus.PAUSED, NOW));
            return this;
        }

        public Cred errored(String modelKey) {
            rows.add(ModelState.created(modelKey, ModelStatus.ERROR, NOW));
            return this;
        }

        public Cred row(ModelState row) {
            rows.add(row);
            return this;
        }

        public Cred version(long value) {
            this.version = value;
            return this;
        }

        public CredentialSnapshot build() {
            AccountState account = new AccountState(status, 0, nextRetryAt, cooldownUntil, null, null, null, 0, null);
            return new CredentialSnapshot(
                    id,
                    version,
                    "name-" + id,
                    platform,
                    kind,
                    "https://relay.example/" + id,
                    "enc",
                    mappings,
                    null,
                    enabled,
                    archived,
                    inPool,
                    priority,
                    weightMode,
                    weight,
                    quota,
                    groups,
                    account,
                    rows,
                    NOW);
        }
    }

    public static final class Group {
        private final String id;
        private boolean enabled = true;
        private WeightMode weightMode = WeightMode.AUTO;
        private int weight;
        private List<String> exposed = List.of();
        private boolean affinity;
        private BridgePolicy bridging = BridgePolicy.NATIVE_FIRST;

        private Group(String id) {
            this.id = id;
        }

        public Group disabled() {
            this.enabled = false;
            return this;
        }

        public Group manualWeight(int value) {
            this.weightMode = WeightMode.MANUAL;
            this.weight = value;
            return this;
        }

        public Group exposes(String... models) {
            this.exposed = List.of(models);
            return this;
        }

        public Group affinity() {
            this.affinity = true;
            return this;
        }

        public Group bridging(BridgePolicy value) {
            this.bridging = value;
            return this;
        }

        public GroupSnapshot build() {
            return new GroupSnapshot(
                    id, 1, "group-" + id, enabled, weightMode, weight, exposed, affinity, bridging, NOW);
        }
    }

    public static final class Key {
        private final String id;
        private boolean enabled = true;
        private Instant expiresAt;
        private List<Protocol> protocols = List.of();
        private List<String> models = List.of();
        private List<String> groups = List.of("g1");

        private Key(String id) {
            this.id = id;
        }

        public Key disabled() {
            this.enabled = false;
            return this;
        }

        public Key expiresAt(Instant at) {
            this.expiresAt = at;
            return this;
        }

        public Key protocols(Protocol... values) {
            this.protocols = List.of(values);
            return this;
        }

        public Key models(String... patterns) {
            this.models = List.of(patterns);
            return this;
        }

        public Key groups(String... ids) {
            this.groups = List.of(ids);
            return this;
        }

        public static String plaintext(String id) {
            return "rk-" + id + "-secret";
        }

        public AccessKeySnapshot build() {
            return new AccessKeySnapshot(
                    id,
                    1,
                    "key-" + id,
                    AccessKeys.hash(plaintext(id)),
                    "rk-" + id,
                    enabled,
                    expiresAt,
                    protocols,
                    models,
                    groups,
                    NOW);
        }
    }
}
