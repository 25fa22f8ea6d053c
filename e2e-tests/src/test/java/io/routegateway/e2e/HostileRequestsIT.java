package io.routegateway.e2e;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.demo.Behaviour;
import io.routegateway.demo.Behaviour.Mode;
import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.EventLedger;
import io.routegateway.e2e.support.Http;
import io.routegateway.e2e.support.OutcomeTap;
import io.routegateway.e2e.support.Pool;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Hostile requests against the real services: content a client controls is never evidence about
 * a credential, and a Gemini path can never reach another upstream path.
 *
 * <ul>
 *   <li><b>Echo attacks</b>: every permanent and quota marker, planted as the model name, an extra
 *       field, the prompt text and a tool name, on each protocol (OpenAI Chat Completions and
 *       Responses, Anthropic Messages, Gemini), while the demo upstream answers 400/404/422 quoting
 *       the request the way each vendor does ({@link Mode#ECHO});
 *   <li><b>Gemini path attacks</b>: {@code ..%2F}, {@code ?}, {@code #}, a space, broken
 *       percent-encoding, a control character and an over-long name in the model segment.
 * </ul>
 *
 * Every answer is a 4xx with a code, and at the end nothing has changed: no outcome event was
 * produced for the pool's credentials (proven by a sentinel failure per credential that must be its
 * first event since the mark), every {@code route_credentials} row is {@code ok} with zero counts
 * and no cooldown, there is no {@code route_credential_models} row, the admin API agrees, and
 * state-service stayed ready.
 */
class HostileRequestsIT extends EndToEndTest {

    /** Every marker text a client could plant: permanent markers, quota phrases and codes, new-api's prefix. */
    static final List<String> MARKERS = List.of(
            "invalid_grant",
            "refresh token has been revoked",
            "token has been revoked",
            "官方 oauth 凭证已失效",
            "额度已耗尽",
            "配额耗尽",
            "quota exhausted",
            "insufficient quota",
            "quota has been exhausted",
            "用户额度不足",
            "insufficient_quota");

    static final int[] CLIENT_STATUSES = {400, 404, 422};

    enum Protocol {
        CHAT,
        RESPONSES,
        MESSAGES,
        GEMINI
    }

    enum Shape {
        MODEL_NAME,
        EXTRA_FIELD,
        PROMPT_TEXT,
        TOOL_NAME
    }

    private record Target(String path, ObjectNode body) {}

    /** One attack request: where it goes and what it carries. */
    static Target attack(Protocol protocol, Shape shape, String marker) {
        ObjectNode body = Http.JSON.createObjectNode();
        String model = shape == Shape.MODEL_NAME ? marker : "demo-model";
        String prompt = shape == Shape.PROMPT_TEXT ? marker : "Say hello";
        String path;
        switch (protocol) {
            case CHAT -> {
                path = "/v1/chat/completions";
                body.put("model", model);
                body.putArray("messages").addObject().put("role", "user").put("content", prompt);
                if (shape == Shape.TOOL_NAME) {
                    body.putArray("tools")
                            .addObject()
                            .put("type", "function")
                            .putObject("function")
                            .put("name", marker);
                }
            }
            case RESPONSES -> {
                path = "/v1/responses";
                body.put("model", model);
                body.put("input", prompt);
                if (shape == Shape.TOOL_NAME) {
                    body.putArray("tools").addObject().put("type", "function").put("name", marker);
                }
            }
            case MESSAGES -> {
                path = "/v1/messages";
                body.put("model", model);
                body.put("max_tokens", 16);
                body.putArray("messages").addObject().put("role", "user").put("content", prompt);
                if (shape == Shape.TOOL_NAME) {
                    body.putArray("tools")
                            .addObject()
                            .put("name", marker)
                            .putObject("input_schema")
                            .put("type", "object");
                }
            }
            default -> {
                path = "/v1beta/models/" + encode(model) + ":generateContent";
                body.putArray("contents")
                        .addObject()
                        .putArray("parts")
                        .addObject()
                        .put("text", prompt);
                if (shape == Shape.TOOL_NAME) {
                    body.putArray("tools")
                            .addObject()
                            .putArray("functionDeclarations")
                            .addObject()
                            .put("name", marker);
                }
            }
        }
        if (shape == Shape.EXTRA_FIELD) {
            body.put(marker, 1);
        }
        return new Target(path, body);
    }

    /** Gemini model segments (raw, as they appear in the URL) that must never reach an upstream. */
    static final List<String> GEMINI_PATH_ATTACKS = List.of(
            "..%2F..%2Fv1%2Ffiles",
            "..%252F..%252Fv1",
            "m%3Fkey%3Dstolen",
            "m%23fragment",
            "m%20x",
            "m%25zz",
            "m%00",
            "%2E%2E",
            "m".repeat(2_000));

    @Test
    void hostileRequestsChangeNoCredentialState() {
        Pool pool = Pool.create(system);
        String openai = pool.credential("oai", c -> c.retries(0).map("*", "*"));
        String claude =
                pool.credential("cla", c -> c.platform("claude").retries(0).map("*", "*"));
        String gemini =
                pool.credential("gem", c -> c.platform("gemini").retries(0).map("*", "*"));
        String key = pool.accessKey(pool.group("main", openai, claude, gemini));
        pool.awaitVisible(key);
        List<String> credentials = List.of(openai, claude, gemini);
        Map<Protocol, String> servedBy = Map.of(
                Protocol.CHAT, openai, Protocol.RESPONSES, openai, Protocol.MESSAGES, claude, Protocol.GEMINI, gemini);
        EventLedger ledger = EventLedger.start(system);
        Map<String, Integer> answers = new TreeMap<>();
        List<String> notRefused = new ArrayList<>();
        int requests = 0;

        // echo attacks: every marker × shape × protocol, the upstream answering 400/404/422
        for (Protocol protocol : Protocol.values()) {
            for (Shape shape : Shape.values()) {
                for (String marker : MARKERS) {
                    int status = CLIENT_STATUSES[requests % CLIENT_STATUSES.length];
                    for (String credential : credentials) {
                        system.demo().setBehaviour(credential, new Behaviour(Mode.ECHO, status, null, 0, 0));
                    }
                    Target target = attack(protocol, shape, marker);
                    Http.Response response = post(key, target.path(), target.body());
                    requests++;
                    String label = protocol + " " + shape + " '" + marker + "'";
                    tally(answers, notRefused, label, response);
                    if (!"invalid_model".equals(response.errorCode())) {
                        // it reached the upstream: the client gets the upstream's own answer, echo included
                        assertThat(response.status())
                                .as("%s: %s", label, response)
                                .isEqualTo(status);
                        assertThat(response.body()).as(label).contains(marker);
                    }
                }
            }
        }
        long geminiRequestsBefore = system.demo().requestCount(gemini);

        // Gemini path attacks: refused at the gateway, never sent to any upstream
        for (String segment : GEMINI_PATH_ATTACKS) {
            ObjectNode body = Http.JSON.createObjectNode();
            body.putArray("contents").addObject().putArray("parts").addObject().put("text", "hi");
            Http.Response response = post(key, "/v1beta/models/" + segment + ":generateContent", body);
            requests++;
            String label = "GEMINI path '" + abbreviate(segment) + "'";
            tally(answers, notRefused, label, response);
            assertThat(response.status()).as("%s: %s", label, response).isEqualTo(400);
            assertThat(response.errorCode()).as(label).isEqualTo("invalid_model");
            assertThat(response.body())
                    .as("%s: no base URL, no host, no unbounded echo", label)
                    .doesNotContain(system.demoBaseUrl())
                    .doesNotContain("127.0.0.1")
                    .hasSizeLessThan(1_000);
        }
        assertThat(system.demo().requestCount(gemini))
                .as("no Gemini path attack reached the upstream")
                .isEqualTo(geminiRequestsBefore);
        assertThat(notRefused).as("answers that were not a 4xx with a code").isEmpty();

        // 0 credential state changes: rows, model rows and the admin API
        for (String credential : credentials) {
            Map<String, Object> row = system.database().credential(credential);
            assertThat(row.get("status")).as("%s status", credential).isEqualTo("ok");
            assertThat(integer(row, "transient_failure_count")).as(credential).isZero();
            assertThat(integer(row, "semantic_failure_streak_count"))
                    .as(credential)
                    .isZero();
            assertThat(row.get("cooldown_until")).as(credential).isNull();
            assertThat(row.get("next_retry_at")).as(credential).isNull();
            assertThat(row.get("last_failure_kind")).as(credential).isNull();
            assertThat(system.database().models(credential))
                    .as("%s model rows", credential)
                    .isEmpty();
            JsonNode admin = system.admin().credential(credential);
            assertThat(admin.path("status").asText())
                    .as("%s via the admin API", credential)
                    .isEqualTo("ok");
        }
        assertThat(system.state().ready())
                .as("state-service ready: %s", system.state().readiness())
                .isTrue();

        // sentinel: real failures must be the only outcome events since the mark, one per upstream
        // call (a request fails over across the group, bridged credentials included)
        Map<String, Long> callsBeforeSentinel = new LinkedHashMap<>();
        for (String credential : credentials) {
            system.demo().setBehaviour(credential, new Behaviour(Mode.STATUS, 500, null, 0, 0));
            callsBeforeSentinel.put(credential, system.demo().requestCount(credential));
        }
        for (Protocol protocol : List.of(Protocol.CHAT, Protocol.MESSAGES, Protocol.GEMINI)) {
            Target sentinel = attack(protocol, Shape.PROMPT_TEXT, "Say hello");
            assertThat(post(key, sentinel.path(), sentinel.body()).status())
                    .as("sentinel %s", protocol)
                    .isEqualTo(502);
        }
        Map<String, Integer> sentinelCalls = new LinkedHashMap<>();
        for (String credential : credentials) {
            long calls = system.demo().requestCount(credential) - callsBeforeSentinel.get(credential);
            assertThat(calls).as("%s: sentinel calls", credential).isPositive();
            sentinelCalls.put(credential, (int) calls);
        }
        int expectedEvents =
                sentinelCalls.values().stream().mapToInt(Integer::intValue).sum();
        List<OutcomeTap.Outcome> produced = new ArrayList<>();
        await("one sentinel event per sentinel call")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    produced.clear();
                    produced.addAll(ledger.produced(credentials));
                    return produced.size() >= expectedEvents;
                });
        Map<String, List<String>> byCredential = new LinkedHashMap<>();
        for (OutcomeTap.Outcome outcome : produced) {
            byCredential
                    .computeIfAbsent(outcome.credentialId(), id -> new ArrayList<>())
                    .add(outcome.type());
        }
        for (String credential : credentials) {
            assertThat(byCredential.get(credential))
                    .as("%s: outcome events since the mark (only the sentinel's)", credential)
                    .hasSize(sentinelCalls.get(credential))
                    .containsOnly("transient-failure-recorded.v1");
        }
        for (String credential : credentials) {
            system.demo().reset(credential);
        }
        EventLedger.summary(
                "HostileRequestsIT",
                "requests=" + requests,
                "answers=" + answers,
                "outcome_events_before_sentinel=0",
                "credential_state_changes=0");
    }

    private static void tally(
            Map<String, Integer> answers, List<String> notRefused, String label, Http.Response response) {
        String code = errorCode(response);
        answers.merge(response.status() + " " + code, 1, Integer::sum);
        System.out.println("E2E-HOSTILE " + label + " -> " + response.status() + " " + code);
        if (response.status() < 400 || response.status() > 499 || code.isEmpty()) {
            notRefused.add(label + " -> " + response.status() + " " + abbreviate(response.body()));
        }
    }

    /** {@code error.code}, else the vendor's {@code error.type} or {@code error.status}. */
    private static String errorCode(Http.Response response) {
        JsonNode error;
        try {
            error = response.json().path("error");
        } catch (AssertionError | RuntimeException unparsable) {
            return "";
        }
        for (String field : List.of("code", "type", "status")) {
            JsonNode value = error.path(field);
            if (value.isTextual() && !value.asText().isBlank()) {
                return value.asText();
            }
        }
        return "";
    }

    private static Http.Response post(String key, String path, ObjectNode body) {
        return Http.send(
                "POST",
                system.gateway().baseUrl() + path,
                Map.of("authorization", "Bearer " + key),
                body,
                Duration.ofSeconds(60));
    }

    private static String encode(String model) {
        return java.net.URLEncoder.encode(model, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "…(" + text.length() + " chars)";
    }
}
