package io.routegateway.gateway.http;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.model.Protocol;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.json;
import static io.routegateway.gateway.support.MockUpstream.ok;
import static io.routegateway.gateway.support.MockUpstream.sequence;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The front door: the key is checked on the headers before the body is read, the body has a read
 * deadline, strings may be as long as the body limit allows, a request needs a usable model, and a
 * buffered upstream answer has a size cap. (The test profile sets a 3 s body deadline and a 2 MB
 * answer cap.)
 */
@QuarkusTest
class FrontDoorTests extends GatewayTestBase {

    private String credential;
    private String group;
    private String keyId;

    @BeforeEach
    void pool() {
        credential = Pool.uid("c");
        group = Pool.uid("g");
        keyId = Pool.uid("k");
        upstream.on(credential, ok());
        install(
                List.of(Pool.credential(credential).serves("m").groups(group).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
    }

    @Test
    void anUnknownKeyIsRefusedOnItsHeadersAndTheConnectionClosed() throws IOException {
        // 30 MB declared, not one byte of it sent: the answer cannot have waited for the body
        String head = "POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\n"
                + "Authorization: Bearer rk-nobody\r\nContent-Type: application/json\r\n"
                + "Content-Length: 30000000\r\n\r\n";
        RawAnswer answer = raw(head, new byte[0]);
        assertThat(answer.status()).isEqualTo(401);
        assertThat(answer.head().toLowerCase()).contains("connection: close");
        assertThat(answer.error().path("code").asText()).isEqualTo("invalid_access_key");
        assertThat(answer.closed()).as("connection closed behind the 401").isTrue();
    }

    @Test
    void aBodyThatNeverArrivesIs408AndClosesTheConnection() throws IOException {
        String head = "POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\n"
                + "Authorization: Bearer " + Pool.plaintext(keyId) + "\r\nContent-Type: application/json\r\n"
                + "Content-Length: 1000\r\n\r\n";
        RawAnswer answer = raw(head, "{\"model\":\"m\",".getBytes(StandardCharsets.UTF_8));
        assertThat(answer.status()).isEqualTo(408);
        assertThat(answer.error().path("code").asText()).isEqualTo("request_body_timeout");
        assertThat(answer.error().path("message").asText()).contains("gateway.request.body-read-timeout");
        assertThat(answer.closed()).isTrue();
        assertThat(upstream.count(credential)).isZero();
        List<RequestCompleted> records =
                usage(keyId, found -> found.stream().anyMatch(r -> "request_body_timeout".equals(r.reasonCode())));
        assertThat(records).anyMatch(r -> r.status() == 408 && "request_body_timeout".equals(r.reasonCode()));
    }

    @Test
    void aStringOverTwentyMillionCharactersUnderTheBodyLimitIsAccepted() {
        String attachment = "A".repeat(21_000_000);
        String body = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + attachment + "\"}]}";
        HttpResponse<String> response = post("/v1/chat/completions", keyId, body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(upstream.hits(credential)).hasSize(1);
        assertThat(upstream.hits(credential).get(0).body()).contains(attachment);
    }

    @Test
    void aRequestWithoutAUsableModelIsRefusedBeforeRouting() {
        for (String body : List.of(
                "{\"messages\":[]}",
                "{\"model\":null,\"messages\":[]}",
                "{\"model\":42,\"messages\":[]}",
                "{\"model\":\"\",\"messages\":[]}",
                "{\"model\":\"   \",\"messages\":[]}")) {
            HttpResponse<String> response = post("/v1/chat/completions", keyId, body);
            assertThat(response.statusCode()).as(body).isEqualTo(400);
            assertThat(parse(response.body()).at("/error/code").asText())
                    .as(body)
                    .isEqualTo("model_required");
            assertThat(post("/v1/messages", keyId, body).statusCode()).as(body).isEqualTo(400);
            assertThat(post("/v1/responses", keyId, body).statusCode()).as(body).isEqualTo(400);
        }
        // a key that restricts models answers with the spec's code
        String restricted = Pool.uid("k");
        install(List.of(), List.of(), Pool.key(restricted, List.of(group), List.of(), List.of("m*"), true, null, 1));
        HttpResponse<String> filtered = post("/v1/chat/completions", restricted, "{\"model\":\"\",\"messages\":[]}");
        assertThat(filtered.statusCode()).isEqualTo(403);
        assertThat(parse(filtered.body()).at("/error/code").asText()).isEqualTo("model_required_by_filter");
        // a disabled key is refused as such, whatever the body
        String disabled = Pool.uid("k");
        install(
                List.of(),
                List.of(),
                Pool.key(disabled, List.of(group), List.of(Protocol.OPENAI_CHAT), List.of(), false, null, 1));
        assertThat(parse(post("/v1/chat/completions", disabled, "{\"messages\":[]}")
                                .body())
                        .at("/error/code")
                        .asText())
                .isEqualTo("access_key_disabled");
        assertThat(upstream.count(credential)).as("nothing was forwarded").isZero();
    }

    @Test
    void aModelNameThatCannotBeOneIsInvalidAndNeverQuoted() {
        String huge = "x".repeat(100_000);
        for (String model : List.of(huge, "mock\\u0000model", "a\\nb")) {
            HttpResponse<String> response =
                    post("/v1/chat/completions", keyId, "{\"model\":\"" + model + "\",\"messages\":[]}");
            assertThat(response.statusCode()).as(model.length() + " chars").isEqualTo(400);
            JsonNode error = parse(response.body()).get("error");
            assertThat(error.path("code").asText()).isEqualTo("invalid_model");
            assertThat(response.body()).hasSizeLessThan(1_000).doesNotContain("xxxxxxxxxx");
        }
        // a lone surrogate is refused with the body's text, before the model is read
        HttpResponse<String> lone = post("/v1/chat/completions", keyId, "{\"model\":\"a\\ud800\",\"messages\":[]}");
        assertThat(lone.statusCode()).isEqualTo(400);
        assertThat(parse(lone.body()).path("error").path("code").asText()).isEqualTo("invalid_json");
        assertThat(parse(lone.body()).path("error").path("message").asText()).contains("lone surrogate");
        assertThat(upstream.count(credential)).isZero();
    }

    @Test
    void anUpstreamAnswerOverTheCapIs502AndNoEvidenceAboutTheCredential() {
        String big = "{\"id\":\"c1\",\"choices\":[],\"pad\":\"" + "p".repeat(3 * 1024 * 1024) + "\"}";
        upstream.on(credential, sequence(json(200, big), json(500, "{\"error\":{\"message\":\"sentinel\"}}")));
        HttpResponse<String> response = post("/v1/chat/completions", keyId, chat("m"));
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(parse(response.body()).at("/error/code").asText()).isEqualTo("upstream_response_too_large");
        assertThat(response.body()).hasSizeLessThan(1_000);
        assertThat(upstream.count(credential))
                .as("not retried elsewhere or again")
                .isEqualTo(1);
        CredentialSnapshot held = views.pool().credential(credential).orElseThrow();
        assertThat(held.account())
                .isEqualTo(Pool.credential(credential).build(box).account());
        assertThat(held.models()).isEmpty();

        // the sentinel failure is the first outcome event of the credential: the oversize answer made none
        assertThat(post("/v1/chat/completions", keyId, chat("m")).statusCode()).isEqualTo(502);
        List<CredentialEvent> events = outcomes(credential, found -> !found.isEmpty());
        assertThat(events).hasSize(1);
        assertThat(events.get(0)).isInstanceOf(CredentialEvent.TransientFailureRecorded.class);
        assertThat(((CredentialEvent.TransientFailureRecorded) events.get(0)).status())
                .isEqualTo(500);
    }

    // ---- raw HTTP/1.1 ----------------------------------------------------------------------------
}
