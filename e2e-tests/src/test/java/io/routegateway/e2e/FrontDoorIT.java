package io.routegateway.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
 * The gateway's front door against the real services: an unauthenticated upload is refused on its
 * headers without its body being read, a body that never arrives ends with 408, a string over
 * Jackson's default 20,000,000 characters in a body under the limit is accepted, requests without a
 * usable model are refused with a code and never forwarded, and an upstream answer over the
 * buffered-answer cap is 502 {@code upstream_response_too_large} with no credential state change.
 */
class FrontDoorIT extends EndToEndTest {

    private static final String SUCCESS = "attempt-succeeded.v1";

    @Test
    void theFrontDoorRefusesWhatWouldCostThePoolAndChangesNoCredentialState() throws IOException {
        Pool pool = Pool.create(system);
        String credential = pool.credential("oai", c -> c.retries(0).map("*", "*"));
        String group = pool.group("main", credential);
        String key = pool.accessKey(group);
        pool.awaitVisible(key);
        EventLedger ledger = EventLedger.start(system);
        URI gateway = URI.create(system.gateway().baseUrl());
        List<String> cases = new ArrayList<>();

        // 1. unauthenticated 30 MB upload: 401 on the headers, no body sent at all, connection closed
        Raw unauthenticated = raw(
                gateway,
                "POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer rk-nobody\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 30000000\r\n\r\n",
                new byte[0]);
        assertThat(unauthenticated.status()).isEqualTo(401);
        assertThat(unauthenticated.head().toLowerCase()).contains("connection: close");
        assertThat(unauthenticated.code()).isEqualTo("invalid_access_key");
        cases.add("unauthenticated 30 MB declared, 0 sent -> 401 " + unauthenticated.code() + ", connection closed");

        // 2. a body that declares more than it sends: 408 request_body_timeout, connection closed
        Raw slow = raw(
                gateway,
                "POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer " + key + "\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n",
                "{\"model\":\"demo-model\",\"messages\":[".getBytes(StandardCharsets.UTF_8));
        assertThat(slow.status()).isEqualTo(408);
        assertThat(slow.code()).isEqualTo("request_body_timeout");
        cases.add("5000 bytes declared, 34 sent -> 408 " + slow.code() + ", connection closed");

        // 3. one string over 20,000,000 characters, body under the 32 MB limit: served
        String attachment = "A".repeat(21_000_000);
        Http.Response large = post(key, chat("demo-model", attachment));
        assertThat(large.status()).as(large.toString()).isEqualTo(200);
        cases.add("21,000,000-character string -> " + large.status());

        // 4. no usable model: 400 model_required, never forwarded
        long beforeRefusals = system.demo().requestCount(credential);
        for (String model : List.of("<missing>", "null", "42", "\"\"", "\"  \"")) {
            String body = model.equals("<missing>")
                    ? "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"
                    : "{\"model\":" + model + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
            Http.Response response = post(key, body);
            assertThat(response.status()).as(model).isEqualTo(400);
            assertThat(response.errorCode()).as(model).isEqualTo("model_required");
            cases.add("model " + model + " -> 400 " + response.errorCode());
        }
        // a 100 KB model name and a NUL: invalid_model, bounded, never forwarded
        for (String model : List.of("m".repeat(100_000), "mock\u0000model")) {
            Http.Response response = post(key, chat(model, "hi"));
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.errorCode()).isEqualTo("invalid_model");
            assertThat(response.body()).hasSizeLessThan(1_000);
            cases.add("model of " + model.length() + " chars -> 400 " + response.errorCode());
        }
        assertThat(system.demo().requestCount(credential))
                .as("no model refusal reached the upstream")
                .isEqualTo(beforeRefusals);
        // a key that restricts models: the spec's model_required_by_filter
        ObjectNode restrictedKey = Http.JSON
                .createObjectNode()
                .put("id", pool.accessKeyId() + "-r")
                .put("name", "e2e restricted key");
        restrictedKey.putArray("group_ids").add(group);
        restrictedKey.putArray("allowed_models").add("demo-*");
        String restricted = system.admin()
                .expect(201, "POST", "/access-keys", restrictedKey)
                .path("key")
                .asText();
        await("restricted key visible")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> post(restricted, chat("demo-model", "hi")).status() == 200);
        long beforeFiltered = system.demo().requestCount(credential);
        Http.Response filtered = post(restricted, "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(filtered.status()).isEqualTo(403);
        assertThat(filtered.errorCode()).isEqualTo("model_required_by_filter");
        assertThat(system.demo().requestCount(credential)).isEqualTo(beforeFiltered);
        cases.add("restricted key, no model -> 403 " + filtered.errorCode());

        // 5. an upstream answer over the 16 MB buffered-answer cap (the demo quotes a 17 MB prompt)
        system.demo().setBehaviour(credential, new Behaviour(Mode.ECHO, 400, null, 0, 0));
        Http.Response oversize = post(key, chat("demo-model", "B".repeat(17_000_000)));
        assertThat(oversize.status()).as(oversize.toString()).isEqualTo(502);
        assertThat(oversize.errorCode()).isEqualTo("upstream_response_too_large");
        assertThat(oversize.body()).hasSizeLessThan(1_000);
        cases.add("17 MB upstream answer -> 502 " + oversize.errorCode());

        // 0 credential state changes: the row, model rows, and a sentinel that must be the first event
        Map<String, Object> row = system.database().credential(credential);
        assertThat(row.get("status")).isEqualTo("ok");
        assertThat(((Number) row.get("transient_failure_count")).intValue()).isZero();
        assertThat(row.get("cooldown_until")).isNull();
        assertThat(row.get("last_failure_kind")).isNull();
        assertThat(system.database().models(credential)).isEmpty();
        system.demo().setBehaviour(credential, new Behaviour(Mode.STATUS, 500, null, 0, 0));
        assertThat(post(key, chat("demo-model", "hi")).status()).isEqualTo(502);
        List<OutcomeTap.Outcome> produced = new ArrayList<>();
        await("the sentinel's outcome event")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    produced.clear();
                    produced.addAll(ledger.produced(List.of(credential)));
                    return produced.stream().anyMatch(outcome -> !SUCCESS.equals(outcome.type()));
                });
        // every counted success is published (it changes nothing on an ok credential); besides
        // those, the sentinel's failure must be the only event
        assertThat(produced)
                .extracting(OutcomeTap.Outcome::type)
                .filteredOn(type -> !SUCCESS.equals(type))
                .as("outcome events since the mark other than successes: only the sentinel")
                .containsExactly("transient-failure-recorded.v1");
        assertThat(system.state().ready())
                .as("state-service ready: %s", system.state().readiness())
                .isTrue();
        system.demo().reset(credential);
        cases.forEach(line -> System.out.println("E2E-FRONTDOOR " + line));
        EventLedger.summary(
                "FrontDoorIT",
                "cases=" + cases.size(),
                "outcome_events_before_sentinel=0",
                "credential_state_changes=0");
    }

    private static String chat(String model, String prompt) {
        ObjectNode body = Http.JSON.createObjectNode().put("model", model);
        body.putArray("messages").addObject().put("role", "user").put("content", prompt);
        return body.toString();
    }

    private static Http.Response post(String key, String body) {
        return Http.send(
                "POST",
                system.gateway().baseUrl() + "/v1/chat/completions",
                Map.of("authorization", "Bearer " + key),
                body,
                Duration.ofSeconds(120));
    }

    private record Raw(int status, String head, String code) {}

    /** Sends {@code head} and a part of the body, leaves the upload unfinished and reads the answer to EOF. */
    private static Raw raw(URI gateway, String head, byte[] body) throws IOException {
        try (Socket socket = new Socket(gateway.getHost(), gateway.getPort())) {
            // a guard against a hung test, not an expectation about time
            socket.setSoTimeout(120_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            byte[] chunk = new byte[8192];
            int n;
            // reaching the end of the stream is the proof that the gateway closed the connection
            while ((n = in.read(chunk)) >= 0) {
                read.write(chunk, 0, n);
            }
            String text = read.toString(StandardCharsets.UTF_8);
            int split = text.indexOf("\r\n\r\n");
            assertThat(split).as("an HTTP answer: %s", text).isPositive();
            String answerHead = text.substring(0, split);
            JsonNode error = Http.JSON.readTree(text.substring(split + 4)).path("error");
            return new Raw(
                    Integer.parseInt(answerHead.substring(9, 12)),
                    answerHead,
                    error.path("code").asText());
        }
    }
}
