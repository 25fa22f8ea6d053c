package io.routegateway.gateway.forward;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.Topics;
import io.routegateway.core.secretmask.SecretMatcher;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.json;
import static io.routegateway.gateway.support.MockUpstream.ok;
import static io.routegateway.gateway.support.MockUpstream.sse;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An upstream that quotes the pooled key in any encoding hands nothing to the tenant: not in an
 * error answer, a 200 answer or a committed stream (the key split across chunks), and not in the
 * outcome event published for the failure.
 */
@QuarkusTest
class SecretEncodingTests extends GatewayTestBase {

    private String a;
    private String b;
    private String keyId;
    private String secret;
    private SecretMatcher leaks;

    @BeforeEach
    void names() {
        a = Pool.uid("a");
        b = Pool.uid("b");
        keyId = Pool.uid("k");
        secret = "sk-proj/" + a + "+Key=";
        leaks = SecretMatcher.of(secret);
    }

    private void pool() {
        String group = Pool.uid("g");
        upstream.on(b, ok());
        install(
                List.of(
                        Pool.credential(a)
                                .secret(secret)
                                .serves("m")
                                .groups(group)
                                .priority(0)
                                .build(box),
                        Pool.credential(b).serves("m").groups(group).priority(1).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
    }

    private static String unicodeEscaped(String text) {
        StringBuilder out = new StringBuilder();
        for (char c : text.toCharArray()) {
            out.append(String.format("\\u%04x", (int) c));
        }
        return out.toString();
    }

    @Test
    void aFailureQuotingTheKeyEscapedIsMaskedInThePublishedOutcome() {
        upstream.on(
                a,
                json(
                        401,
                        "{\"error\":{\"message\":\"Incorrect API key provided: " + secret.replace("/", "\\/") + " / "
                                + unicodeEscaped(secret) + "\"}}"));
        pool();

        HttpResponse<String> response = post("/v1/chat/completions", keyId, chat("m"));

        assertThat(response.statusCode()).isEqualTo(200);
        List<String> published = new ArrayList<>();
        topics().read(
                        Topics.OUTCOMES,
                        a::equals,
                        values -> {
                            published.clear();
                            published.addAll(values);
                            return !values.isEmpty();
                        },
                        KAFKA_WAIT);
        assertThat(published).hasSize(1);
        assertThat(published.get(0)).contains("[redacted]");
        assertThat(leaks.occursIn(published.get(0))).as(published.get(0)).isFalse();
    }

    @Test
    void aClientErrorQuotingTheKeyUrlEncodedAndInBase64ReachesTheClientMasked() {
        String base64 = Base64.getEncoder().encodeToString(("Basic:" + secret).getBytes(StandardCharsets.UTF_8));
        upstream.on(
                a,
                json(
                        400,
                        "{\"error\":{\"message\":\"bad ?key="
                                + URLEncoder.encode(secret, StandardCharsets.UTF_8)
                                        .replace("%2F", "%2f")
                                        .replace("%2B", "%2b")
                                + " auth " + base64 + "\"}}"));
        pool();

        HttpResponse<String> response = post("/v1/chat/completions", keyId, chat("m"));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).startsWith("{\"error\":{\"message\":\"bad ?key=[redacted] auth ");
        assertThat(leaks.occursIn(response.body())).as(response.body()).isFalse();
    }

    @Test
    void aSuccessfulAnswerQuotingTheKeyReachesTheClientMasked() {
        upstream.on(
                a,
                json(
                        200,
                        "{\"id\":\"c1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                                + "\"message\":{\"role\":\"assistant\",\"content\":\"the key is "
                                + unicodeEscaped(secret)
                                + "\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1}}"));
        pool();

        HttpResponse<String> response = post("/v1/chat/completions", keyId, chat("m"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(parse(response.body()).at("/choices/0/message/content").asText())
                .isEqualTo("the key is [redacted]");
    }

    @Test
    void aCommittedStreamWithTheKeySplitAcrossChunksReachesTheClientMasked() {
        String escaped = secret.replace("/", "\\/");
        String frame = "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"content\":\"key " + escaped + "\"},\"finish_reason\":null}]}\n\n";
        int cut = frame.indexOf(escaped) + 6;
        String stop = "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                + "\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
        upstream.on(
                a,
                sse(
                        List.of(
                                "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                                        + "\"delta\":{\"content\":\"hi\"},\"finish_reason\":null}]}\n\n",
                                frame.substring(0, cut),
                                frame.substring(cut),
                                stop),
                        -1,
                        20));
        pool();

        HttpResponse<String> response = post(
                "/v1/chat/completions",
                keyId,
                "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"content\":\"key [redacted]\"").endsWith("data: [DONE]\n\n");
        assertThat(leaks.occursIn(response.body())).isFalse();
        assertThat(upstream.count(b)).isZero();
    }
}
