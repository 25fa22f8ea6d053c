package io.routegateway.gateway.forward;

import java.net.http.HttpResponse;
import java.util.List;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.model.Platform;
import io.routegateway.core.testing.CredentialBuilder;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.sse;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Native OpenAI Chat streams: the upstream is always asked for usage ({@code
 * stream_options.include_usage}), the tokens are settled from its usage frame, and a client that did
 * not ask for usage does not see that frame; one that asked gets it unchanged.
 */
@QuarkusTest
class StreamUsageFrameTests extends GatewayTestBase {

    private static final String TEXT =
            "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                    + "\"delta\":{\"content\":\"hello\"},\"finish_reason\":null}],\"usage\":null}\n\n";
    private static final String STOP =
            "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                    + "\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":null}\n\n";
    private static final String USAGE = "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[],"
            + "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":4,\"total_tokens\":13}}\n\n";
    private static final String DONE = "data: [DONE]\n\n";

    private String credential;
    private String keyId;

    @BeforeEach
    void names() {
        credential = Pool.uid("cred");
        keyId = Pool.uid("k");
    }

    private void pool(CredentialBuilder cred) {
        String group = Pool.uid("g");
        install(
                List.of(cred.serves("m").groups(group).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
    }

    private HttpResponse<String> stream(String options) {
        return post(
                "/v1/chat/completions",
                keyId,
                "{\"model\":\"m\",\"stream\":true," + options
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
    }

    private RequestCompleted settled() {
        return usage(credential, list -> !list.isEmpty()).get(0);
    }

    @Test
    void aClientThatDidNotAskDoesNotSeeTheUsageFrameButItsTokensAreSettled() {
        upstream.on(credential, sse(List.of(TEXT, STOP, USAGE, DONE), -1, 5));
        pool(Pool.credential(credential));

        HttpResponse<String> response = stream("");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(TEXT + STOP + DONE);
        MockUpstream.Hit hit = upstream.hits(credential).get(0);
        assertThat(parse(hit.body()).at("/stream_options/include_usage").asBoolean())
                .isTrue();
        RequestCompleted record = settled();
        assertThat(record.success()).isTrue();
        assertThat(record.inputTokens()).isEqualTo(9L);
        assertThat(record.outputTokens()).isEqualTo(4L);
    }

    @Test
    void aClientThatAskedGetsTheUsageFrameUnchanged() {
        upstream.on(credential, sse(List.of(TEXT, STOP, USAGE, DONE), -1, 5));
        pool(Pool.credential(credential));

        HttpResponse<String> response = stream("\"stream_options\":{\"include_usage\":true},");

        assertThat(response.body()).isEqualTo(TEXT + STOP + USAGE + DONE);
        assertThat(settled().inputTokens()).isEqualTo(9L);
    }

    @Test
    void aUsageFrameSplitAcrossChunksIsStillLeftOut() {
        int cut = USAGE.indexOf("\"choices\"") + 4;
        upstream.on(credential, sse(List.of(TEXT, STOP + USAGE.substring(0, cut), USAGE.substring(cut) + DONE), -1, 5));
        pool(Pool.credential(credential));

        HttpResponse<String> response = stream("\"stream_options\":{\"include_usage\":false},");

        assertThat(response.body()).isEqualTo(TEXT + STOP + DONE);
        assertThat(parse(upstream.hits(credential).get(0).body())
                        .at("/stream_options/include_usage")
                        .asBoolean())
                .isTrue();
        assertThat(settled().outputTokens()).isEqualTo(4L);
    }

    @Test
    void aStreamReadWholeForAnOfficialAccountLeavesItOutToo() {
        upstream.on(credential, sse(List.of(TEXT, STOP, USAGE, DONE), -1, 5));
        pool(Pool.credential(credential).platform(Platform.CODEX).official());

        HttpResponse<String> response = stream("");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(TEXT + STOP + DONE);
        assertThat(settled().inputTokens()).isEqualTo(9L);
    }
}
