package io.routegateway.core.select;

import java.time.Instant;
import java.util.List;

import io.routegateway.core.access.AccessKeys;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.model.BridgePolicy;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.testing.CredentialBuilder;

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

    /** The shared builder with selection's defaults: group {@code g1}, published and rows written at {@link #NOW}. */
    public static CredentialBuilder cred(String id) {
        return CredentialBuilder.credential(id).groups("g1").publishedAt(NOW).rowsAt(NOW);
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
