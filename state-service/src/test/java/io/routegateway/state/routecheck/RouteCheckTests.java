package io.routegateway.state.routecheck;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.LeaseEvent;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.core.limits.Leases;
import io.routegateway.state.outcome.CredentialEventService;
import io.routegateway.state.support.AdminApiFixtures;
import io.routegateway.state.support.TestKafka;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createCredential;
import static io.routegateway.state.support.AdminApiFixtures.createGroup;
import static io.routegateway.state.support.AdminApiFixtures.createKey;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static io.routegateway.state.support.OutcomeFixtures.await;
import static io.routegateway.state.support.OutcomeFixtures.failure;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/** Route check: the decision trace with the spec's reason codes, from the stored rows, no upstream call. */
@QuarkusTest
class RouteCheckTests {

    @Inject
    CredentialEventService events;

    /** One credential (gpt-5.6-sol → upstream-sol, glm-5.3 → upstream-glm, cooldown 1 h) in one group. */
    record Pool(String credential, String group, String keyId, String key) {}

    Pool pool(Map<String, Object> keyFields) {
        String credential =
                createCredential(unique("cred"), "sk-route-check-000000", AdminApiFixtures.COOLING_FOR_AN_HOUR);
        String group =
                createGroup(unique("grp"), List.of(credential), List.of("gpt-5.6-sol", "glm-5.3", "claude-opus"));
        Map<String, Object> fields = new HashMap<>(keyFields);
        fields.put("name", "route check");
        fields.put("group_ids", List.of(group));
        String[] key = createKey(fields);
        return new Pool(credential, group, key[0], key[1]);
    }

    static Map<String, Object> check(String keyId, String protocol, String model) {
        return Map.of("access_key_id", keyId, "protocol", protocol, "model", model);
    }

    /**
     * A credential at its own {@code max_parallel_requests}, as the gateways' attempt leases on {@code
     * route.admissions} say, is skipped with {@code credential_full}, and serves again once the attempt
     * ends; records that cannot be read or believed do not stop the count, and a gateway's batch of
     * leases counts entry by entry while its single leases still count.
     */
    @Test
    void aCredentialAtItsOwnParallelLimitIsCredentialFullUntilItsAttemptEnds() throws Exception {
        Pool pool = pool(Map.of());
        admin().body(Map.of("limits", Map.of("max_parallel_requests", 1)))
                .patch("/admin/v1/credentials/" + pool.credential())
                .then()
                .statusCode(200);
        Instant now = Instant.now();
        LeaseEvent attempt = Leases.openAttempt(
                UUID.randomUUID(),
                "gateway-elsewhere",
                pool.credential(),
                pool.keyId(),
                null,
                now,
                Duration.ofSeconds(60));
        TestKafka.send(Topics.ADMISSIONS, pool.credential(), "not a lease \u0000");
        TestKafka.send(Topics.ADMISSIONS, pool.credential(), "{\"lease_id\":null}");
        // a gateway's batch (LeaseBatch): its unreadable entry is skipped, its attempt counts
        TestKafka.send(Topics.ADMISSIONS, "gateway-elsewhere", "[\"x\"," + Json.write(attempt) + "]");
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> admin().body(check(pool.keyId(), "openai_chat", "gpt-5.6-sol"))
                        .post("/admin/v1/route-check")
                        .then()
                        .statusCode(200)
                        .body("decision", equalTo("refused"))
                        .body("reason_code", equalTo("no_available_credential"))
                        .body("trace.groups[0].credentials[0].reason", equalTo("credential_full")));

        TestKafka.send(
                Topics.ADMISSIONS, pool.credential(), Json.write(Leases.close(attempt, Instant.now(), null, null)));
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> admin().body(check(pool.keyId(), "openai_chat", "gpt-5.6-sol"))
                        .post("/admin/v1/route-check")
                        .then()
                        .statusCode(200)
                        .body("decision", equalTo("selected"))
                        .body("selected.credential_id", equalTo(pool.credential())));
    }

    @Test
    void aHealthyPoolSelectsTheCredentialAndItsModelKey() {
        Pool pool = pool(Map.of());
        admin().body(Map.of("access_key", pool.key(), "protocol", "openai_chat", "model", "gpt-5.6-sol"))
                .post("/admin/v1/route-check")
                .then()
                .statusCode(200)
                .body("decision", equalTo("selected"))
                .body("selected.credential_id", equalTo(pool.credential()))
                .body("selected.group_id", equalTo(pool.group()))
                .body("selected.model_key", equalTo("upstream-sol"))
                .body("selected.upstream_model", equalTo("upstream-sol"))
                .body("trace.groups[0].verdict", equalTo("SELECTED"))
                .body("trace.groups[0].credentials[0].step", equalTo(6));
    }

    @Test
    void noMappingForTheModelIsModelUnmatched() {
        Pool pool = pool(Map.of());
        admin().body(check(pool.keyId(), "openai_chat", "claude-opus"))
                .post("/admin/v1/route-check")
                .then()
                .statusCode(200)
                .body("decision", equalTo("refused"))
                .body("reason_code", equalTo("route_pool.model_unmatched"))
                .body("http_status", equalTo(502))
                .body("trace.groups[0].credentials[0].step", equalTo(3))
                .body("trace.groups[0].credentials[0].reason", equalTo("route_pool.model_unmatched"));
    }

    @Test
    void aPausedModelEverywhereIsModelUnavailable() {
        Pool pool = pool(Map.of());
        admin().post("/admin/v1/credentials/" + pool.credential() + "/models/upstream-glm/pause")
                .then()
                .statusCode(200);
        admin().body(check(pool.keyId(), "openai_chat", "glm-5.3"))
                .post("/admin/v1/route-check")
                .then()
                .statusCode(200)
                .body("reason_code", equalTo("route_pool.model_unavailable"))
                .body("trace.groups[0].credentials[0].reason", equalTo("route_pool.model_unavailable"))
                .body("trace.groups[0].credentials[0].step", equalTo(5));
        // the sibling model is untouched
        admin().body(check(pool.keyId(), "openai_chat", "gpt-5.6-sol"))
                .post("/admin/v1/route-check")
                .then()
                .body("decision", equalTo("selected"));
    }

    @Test
    void aPoolThatIsAllCoolingFallsBackToTheSoonestRecoveringCredential() {
        Pool pool = pool(Map.of());
        await(() -> events.apply(failure(pool.credential(), Instant.now(), "upstream-sol")));
        admin().body(check(pool.keyId(), "openai_chat", "gpt-5.6-sol"))
                .post("/admin/v1/route-check")
                .then()
                .statusCode(200)
                .body("decision", equalTo("selected"))
                .body("selected.from_cooling_fallback", equalTo(true))
                .body("selected.recovery_at", notNullValue())
                .body("trace.groups[0].credentials[0].reason", equalTo("credential_cooldown"))
                .body("trace.groups[0].credentials[0].recovery_at", notNullValue());
    }

    /**
     * A request whose protocol the pool's platform does not speak goes through the bridge into the
     * platform's protocol; route check runs the gateway's routing call, so it names the bridge (the
     * pool is one openai relay).
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"anthropic_messages", "gemini"})
    void aProtocolThePoolDoesNotSpeakShowsTheBridgeItWouldTake(String protocol) {
        Pool pool = pool(Map.of());
        admin().body(check(pool.keyId(), protocol, "gpt-5.6-sol"))
                .post("/admin/v1/route-check")
                .then()
                .statusCode(200)
                .body("decision", equalTo("selected"))
                .body("selected.upstream_protocol", equalTo("openai_chat"))
                .body("selected.bridge", equalTo(protocol + "->openai_chat"))
                .body("trace.groups[0].credentials[0].detail", org.hamcrest.Matchers.containsString("bridge"));
        // the protocols the platform speaks are routed natively
        for (String nativeProtocol : List.of("openai_chat", "openai_responses")) {
            admin().body(check(pool.keyId(), nativeProtocol, "gpt-5.6-sol"))
                    .post("/admin/v1/route-check")
                    .then()
                    .statusCode(200)
                    .body("decision", equalTo("selected"))
                    .body("selected.upstream_protocol", equalTo(nativeProtocol))
                    .body("selected.bridge", nullValue());
        }
    }

    /**
     * {@code operation: embeddings} checks the gateway's {@code POST /v1/embeddings}: an OpenAI relay
     * serves it natively, a Gemini credential through the embeddings bridge, a Claude one not at all.
     */
    @Test
    void embeddingsShowTheirOwnBridgeAndAClaudeOnlyPoolIsOperationUnsupported() {
        Pool relay = pool(Map.of());
        admin().body(Map.of("access_key_id", relay.keyId(), "operation", "embeddings", "model", "gpt-5.6-sol"))
                .post("/admin/v1/route-check")
                .then()
                .statusCode(200)
                .body("decision", equalTo("selected"))
                .body("selected.upstream_protocol", equalTo("openai_chat"))
                .body("selected.bridge", nullValue());

        String gemini = createCredential(
                unique("gem"),
                "gk-route-check-000000",
                Map.of("platform", "gemini", "base_url", "https://gemini.example.test/"));
        String claude = createCredential(
                unique("cla"),
                "sk-ant-route-check-000000",
                Map.of("platform", "claude", "base_url", "https://claude.example.test/"));
        for (String[] expected : new String[][] {{gemini, "selected"}, {claude, "refused"}}) {
            String group = createGroup(unique("grp"), List.of(expected[0]), List.of("gpt-5.6-sol"));
            String keyId = createKey(Map.of("name", "embeddings check", "group_ids", List.of(group)))[0];
            var checked = admin().body(Map.of(
                            "access_key_id",
                            keyId,
                            "protocol",
                            "openai_chat",
                            "operation",
                            "embeddings",
                            "model",
                            "gpt-5.6-sol"))
                    .post("/admin/v1/route-check")
                    .then()
                    .statusCode(200)
                    .body("decision", equalTo(expected[1]));
            if (expected[0].equals(gemini)) {
                checked.body("selected.upstream_protocol", equalTo("gemini"))
                        .body("selected.bridge", equalTo("openai_embeddings->gemini_embeddings"));
            } else {
                checked.body("reason_code", equalTo("operation_unsupported"))
                        .body("http_status", equalTo(400))
                        .body("message", org.hamcrest.Matchers.containsString("claude has no embeddings API"));
            }
        }
        admin().body(Map.of("access_key_id", relay.keyId(), "operation", "rerank", "model", "gpt-5.6-sol"))
                .post("/admin/v1/route-check")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("validation.query"));
        admin().body(Map.of(
                        "access_key_id",
                        relay.keyId(),
                        "protocol",
                        "gemini",
                        "operation",
                        "embeddings",
                        "model",
                        "gpt-5.6-sol"))
                .post("/admin/v1/route-check")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("validation.protocol"));
    }

    /** A request marked native-only, or a native-only group, is native_route_required as at the gateway. */
    @Test
    void aNativeOnlyRequestOrGroupIsNativeRouteRequired() {
        Pool pool = pool(Map.of());
        Map<String, Object> nativeOnly = new HashMap<>(check(pool.keyId(), "anthropic_messages", "gpt-5.6-sol"));
        nativeOnly.put("native_only", true);
        admin().body(nativeOnly)
                .post("/admin/v1/route-check")
                .then()
                .statusCode(200)
                .body("decision", equalTo("refused"))
                .body("reason_code", equalTo("native_route_required"))
                .body("http_status", equalTo(502))
                .body("trace.groups[0].credentials[0].reason", equalTo("native_route_required"))
                .body("trace.groups[0].credentials[0].step", equalTo(5));

        admin().body(Map.of("bridging", "native_only"))
                .patch("/admin/v1/groups/" + pool.group())
                .then()
                .statusCode(200)
                .body("bridging", equalTo("native_only"));
        admin().body(check(pool.keyId(), "anthropic_messages", "gpt-5.6-sol"))
                .post("/admin/v1/route-check")
                .then()
                .statusCode(200)
                .body("reason_code", equalTo("native_route_required"))
                .body("trace.groups[0].credentials[0].detail", org.hamcrest.Matchers.containsString("native-only"));
        admin().body(Map.of("bridging", "sometimes"))
                .patch("/admin/v1/groups/" + pool.group())
                .then()
                .statusCode(400)
                .body("error.code", equalTo("validation.bridging"));
    }

    /** A body the bridge cannot express (Anthropic MCP servers on a Chat Completions relay) is operation_unsupported, 400. */
    @Test
    void aBodyTheBridgeCannotExpressIsOperationUnsupported() {
        Pool pool = pool(Map.of());
        Map<String, Object> body = Map.of(
                "model",
                "gpt-5.6-sol",
                "max_tokens",
                16,
                "mcp_servers",
                List.of(Map.of("type", "url", "url", "https://mcp.example.test", "name", "x")),
                "messages",
                List.of(Map.of("role", "user", "content", "hi")));
        admin().body(Map.of(
                        "access_key_id",
                        pool.keyId(),
                        "protocol",
                        "anthropic_messages",
                        "model",
                        "gpt-5.6-sol",
                        "body",
                        body))
                .post("/admin/v1/route-check")
                .then()
                .statusCode(200)
                .body("decision", equalTo("refused"))
                .body("reason_code", equalTo("operation_unsupported"))
                .body("http_status", equalTo(400))
                .body("message", org.hamcrest.Matchers.containsString("mcp_servers"));
    }

    @Test
    void aProtocolTheKeyDoesNotAllowIsProtocolFiltered() {
        Pool pool = pool(Map.of("allowed_protocols", List.of("anthropic_messages")));
        admin().body(check(pool.keyId(), "openai_chat", "gpt-5.6-sol"))
                .post("/admin/v1/route-check")
                .then()
                .statusCode(200)
                .body("reason_code", equalTo("protocol_filtered"))
                .body("http_status", equalTo(403))
                .body("trace.access_refusal", equalTo("protocol_filtered"))
                .body("how_to_handle", notNullValue());
    }

    @Test
    void aDisabledKeyIsAccessKeyDisabled() {
        Pool pool = pool(Map.of("enabled", false));
        admin().body(check(pool.keyId(), "openai_chat", "gpt-5.6-sol"))
                .post("/admin/v1/route-check")
                .then()
                .statusCode(200)
                .body("reason_code", equalTo("access_key_disabled"))
                .body("http_status", equalTo(401))
                .body("selected", nullValue());
    }

    @Test
    void aKeyThatMatchesNothingIsInvalidAccessKey() {
        admin().body(Map.of("access_key", "rk-not-a-key", "protocol", "openai_chat", "model", "gpt-5.6-sol"))
                .post("/admin/v1/route-check")
                .then()
                .statusCode(200)
                .body("reason_code", equalTo("invalid_access_key"));
    }

    @Test
    void aRememberedCredentialIsPreferredWhenEligible() {
        Pool pool = pool(Map.of());
        String second = createCredential(unique("cred"), "sk-route-check-2-000000", Map.of());
        admin().body(Map.of("credential_ids", List.of(pool.credential(), second), "affinity_enabled", true))
                .patch("/admin/v1/groups/" + pool.group())
                .then()
                .statusCode(200);
        for (String remembered : List.of(pool.credential(), second)) {
            admin().body(Map.of(
                            "access_key_id", pool.keyId(),
                            "protocol", "openai_chat",
                            "model", "gpt-5.6-sol",
                            "prompt", "You are a helpful assistant.",
                            "remembered_credential_id", remembered))
                    .post("/admin/v1/route-check")
                    .then()
                    .statusCode(200)
                    .body("selected.credential_id", equalTo(remembered))
                    .body("selected.affinity_hit", equalTo(true))
                    .body("affinity_key", notNullValue());
        }
    }

    @Test
    void theCheckNeedsExactlyOneKeyAndAProtocol() {
        error(
                admin().body(Map.of("protocol", "openai_chat"))
                        .post("/admin/v1/route-check")
                        .then(),
                400,
                "validation.access_key");
        error(
                admin().body(Map.of("access_key_id", "a", "access_key", "b", "protocol", "openai_chat"))
                        .post("/admin/v1/route-check")
                        .then(),
                400,
                "validation.access_key");
        error(
                admin().body(Map.of("access_key_id", "a"))
                        .post("/admin/v1/route-check")
                        .then(),
                400,
                "validation.protocol");
        error(
                admin().body(Map.of("access_key_id", "a", "protocol", "smtp"))
                        .post("/admin/v1/route-check")
                        .then(),
                400,
                "validation.protocol");
        error(
                admin().body(Map.of("access_key_id", "no-such-key", "protocol", "openai_chat"))
                        .post("/admin/v1/route-check")
                        .then(),
                404,
                "not_found");
    }

    @Test
    void theTraceListsEveryGroupOfTheScope() {
        Pool pool = pool(Map.of());
        admin().body(check(pool.keyId(), "openai_chat", "gpt-5.6-sol"))
                .post("/admin/v1/route-check")
                .then()
                .body("trace.groups.group_id", hasItem(pool.group()));
    }
}
