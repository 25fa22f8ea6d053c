package io.routegateway.e2e.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import static org.awaitility.Awaitility.await;

/**
 * One test's own slice of the system, created through the admin API: credentials on the demo
 * upstream (each credential's id is also its demo account key, so the demo's answer names who
 * served), groups and an AccessKey. Ids carry a random suffix, so tests sharing the system never
 * meet.
 */
public final class Pool {

    private final RouteSystem system;
    private final String suffix;
    private final List<String> credentials = new ArrayList<>();
    private final Set<String> models = new LinkedHashSet<>();
    private final Map<ServiceProcess, Long> viewBaseline = new LinkedHashMap<>();

    private Pool(RouteSystem system, List<ServiceProcess> gateways) {
        this.system = system;
        this.suffix = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000000, 0x7fffffff));
        for (ServiceProcess gateway : gateways) {
            viewBaseline.put(gateway, viewCredentials(gateway));
        }
    }

    /** A new pool, to be seen by the system's gateway. */
    public static Pool create(RouteSystem system) {
        return new Pool(system, List.of(system.gatewayProcess()));
    }

    /** A new pool, to be seen by each of these gateway replicas. */
    public static Pool create(RouteSystem system, List<ServiceProcess> gateways) {
        return new Pool(system, gateways);
    }

    /**
     * How a credential is set up; defaults: openai api key on the demo upstream, cooldown on (10 s).
     * The one builder of the admin API's credential JSON in the e2e tests (route-core's test-jar
     * {@code CredentialBuilder} builds the {@code CredentialSnapshot} records the gateways read, not
     * what the admin API accepts).
     */
    public static final class CredentialSpec {
        private final ObjectNode body = Http.JSON.createObjectNode();
        private final ArrayNode mappings = body.putArray("model_mappings");
        private final ObjectNode policy = body.putObject("failure_policy");
        private String platform = "openai";
        private boolean official;

        CredentialSpec() {
            policy.put("cooldown_enabled", true).put("cooldown_seconds", 10);
        }

        /** The upstream platform ({@code openai}, {@code claude}, {@code gemini}, …); default openai. */
        public CredentialSpec platform(String value) {
            platform = value;
            return this;
        }

        /**
         * An official (subscription) account of the platform, created without a secret: it awaits
         * authorization until its OAuth material is stored ({@code PUT /credentials/{id}/oauth}).
         */
        public CredentialSpec official(String officialPlatform) {
            platform = officialPlatform;
            official = true;
            return this;
        }

        public CredentialSpec map(String from, String to) {
            mappings.addObject().put("from", from).put("to", to);
            return this;
        }

        public CredentialSpec priority(int priority) {
            body.put("priority", priority);
            return this;
        }

        public CredentialSpec retries(int count) {
            policy.put("retry_count", count);
            return this;
        }

        /** Failure cooldown off: failures only count, the account and its models stay selectable. */
        public CredentialSpec withoutCooldown() {
            policy.put("cooldown_enabled", false);
            return this;
        }

        /** A fingerprint streak never flips a model to {@code error} (the streak still counts). */
        public CredentialSpec withoutErrorStatus() {
            policy.put("error_status_enabled", false);
            return this;
        }

        public CredentialSpec cooldownSeconds(int seconds) {
            policy.put("cooldown_seconds", seconds);
            return this;
        }

        /** The credential's own {@code max_parallel_requests} (its {@code limits}). */
        public CredentialSpec maxParallelRequests(int limit) {
            body.putObject("limits").put("max_parallel_requests", limit);
            return this;
        }

        public CredentialSpec recovery(JsonNode recovery) {
            body.set("recovery", recovery);
            return this;
        }
    }

    /**
     * Creates a credential; its id (at most 16 characters: the demo's answer names the account by
     * its first 16) is also its secret, i.e. its demo upstream account. An official one has no
     * secret: its demo account is the OAuth account id of the grant stored for it.
     */
    public String credential(String role, Consumer<CredentialSpec> setup) {
        String id = role + "-" + suffix;
        CredentialSpec spec = new CredentialSpec();
        setup.accept(spec);
        required(spec.body, id, "e2e " + role, spec.platform, system.demoBaseUrl());
        if (spec.official) {
            spec.body.put("kind", "official").remove("secret");
        }
        system.admin().expect(201, "POST", "/credentials", spec.body);
        credentials.add(id);
        for (JsonNode mapping : spec.mappings) {
            if (!"*".equals(mapping.path("from").asText())) {
                models.add(mapping.path("from").asText());
            }
        }
        return id;
    }

    /**
     * The admin API's credential body with only its required fields (an openai api credential whose
     * secret is {@link #secretOf} its id: its demo upstream account), for tests that send variations of it; {@link
     * #credential} builds on the same fields.
     */
    public static ObjectNode credentialBody(String id, String name, String baseUrl) {
        return required(Http.JSON.createObjectNode(), id, name, "openai", baseUrl);
    }

    private static ObjectNode required(ObjectNode body, String id, String name, String platform, String baseUrl) {
        return body.put("id", id)
                .put("name", name)
                .put("platform", platform)
                .put("kind", "api")
                .put("base_url", baseUrl)
                .put("secret", secretOf(id));
    }

    /**
     * The secret of a credential made here: its demo upstream account (its id) before a tilde, so the
     * demo's answers, which name their account, do not quote the whole secret (the gateway would
     * mask it).
     */
    public static String secretOf(String id) {
        return id + "~e2e-secret";
    }

    /**
     * Creates a group whose pool holds these credentials and that exposes every model they serve
     * (affinity off: selection stays by priority and weight).
     */
    public String group(String role, String... credentialIds) {
        return group(role, List.of(), credentialIds);
    }

    /** Creates a group that exposes exactly {@code exposedModels} (empty = what its credentials serve). */
    public String group(String role, List<String> exposedModels, String... credentialIds) {
        String id = "g" + role + "-" + suffix;
        ObjectNode body = Http.JSON.createObjectNode().put("id", id).put("name", "e2e " + role);
        body.put("affinity_enabled", false);
        ArrayNode exposed = body.putArray("exposed_models");
        exposedModels.forEach(exposed::add);
        models.addAll(exposedModels);
        ArrayNode pool = body.putArray("credential_ids");
        for (String credentialId : credentialIds) {
            pool.add(credentialId);
        }
        system.admin().expect(201, "POST", "/groups", body);
        return id;
    }

    /** Creates an AccessKey scoped to these groups (in failover order) and returns its plaintext. */
    public String accessKey(String... groupIds) {
        ObjectNode body = Http.JSON.createObjectNode().put("id", "k-" + suffix).put("name", "e2e key " + suffix);
        ArrayNode scope = body.putArray("group_ids");
        for (String groupId : groupIds) {
            scope.add(groupId);
        }
        return system.admin()
                .expect(201, "POST", "/access-keys", body)
                .path("key")
                .asText();
    }

    public String accessKeyId() {
        return "k-" + suffix;
    }

    public List<String> credentials() {
        return List.copyOf(credentials);
    }

    /**
     * Waits until every gateway this pool was made for holds all of its credentials and lets {@code
     * key} list all of its models: the admin API's writes have made the round trip through the state
     * topics.
     */
    public void awaitVisible(String key) {
        for (Map.Entry<ServiceProcess, Long> gateway : viewBaseline.entrySet()) {
            GatewayClient client = new GatewayClient(gateway.getKey().baseUrl());
            await("pool visible to " + gateway.getKey().baseUrl())
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> viewCredentials(gateway.getKey()) >= gateway.getValue() + credentials.size()
                            && listsAll(client.models(key)));
        }
    }

    private boolean listsAll(Http.Response listing) {
        if (listing.status() != 200) {
            return false;
        }
        Set<String> listed = new LinkedHashSet<>();
        listing.json().path("data").forEach(model -> listed.add(model.path("id").asText()));
        return listed.containsAll(models);
    }

    private static long viewCredentials(ServiceProcess gateway) {
        return Metrics.of(gateway).count("gateway_view_credentials");
    }
}
