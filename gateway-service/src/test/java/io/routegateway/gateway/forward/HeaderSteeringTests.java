package io.routegateway.gateway.forward;

import java.net.http.HttpRequest;
import java.util.List;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.headers.CredentialHeaders;
import io.routegateway.core.model.Platform;
import io.routegateway.core.testing.CredentialBuilder;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.json;
import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Account-steering headers reach the upstream from the credential's configuration, a client's own
 * value only where the admin allowed it, and the 1M context only through the admin's {@code [1m]}
 * mapping.
 */
@QuarkusTest
class HeaderSteeringTests extends GatewayTestBase {

    private String credential;
    private String keyId;

    @BeforeEach
    void names() {
        credential = Pool.uid("c");
        keyId = Pool.uid("k");
    }

    private void pool(CredentialBuilder builder) {
        String group = Pool.uid("g");
        install(
                List.of(builder.groups(group).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
    }

    private MockUpstream.Hit send(String path, String body, String... headers) {
        HttpRequest.Builder request = request(path, keyId).POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        assertThat(send(request.build()).statusCode()).isEqualTo(200);
        List<MockUpstream.Hit> hits = upstream.hits(credential);
        return hits.get(hits.size() - 1);
    }

    @Test
    void openAiSteeringHeadersComeFromTheCredentialNotTheClient() {
        upstream.on(credential, ok());
        pool(Pool.credential(credential)
                .serves("m")
                .upstreamHeaders(new CredentialHeaders("org-admin", "proj_admin", null, null, List.of())));

        MockUpstream.Hit hit = send(
                "/v1/chat/completions",
                chat("m"),
                "OpenAI-Organization",
                "org-victim",
                "OpenAI-Project",
                "proj_victim",
                "OpenAI-Beta",
                "assistants=v2",
                "X-Forwarded-For",
                "10.0.0.1",
                "User-Agent",
                "sdk/1.0");

        assertThat(hit.headers())
                .containsEntry("openai-organization", "org-admin")
                .containsEntry("openai-project", "proj_admin")
                .containsEntry("user-agent", "sdk/1.0")
                .doesNotContainKeys("openai-beta", "x-forwarded-for");
    }

    @Test
    void aClientValueIsForwardedOnlyWhereTheAdminAllowedIt() {
        upstream.on(credential, ok());
        pool(Pool.credential(credential)
                .serves("m")
                .upstreamHeaders(new CredentialHeaders(null, null, "assistants=v2", null, List.of("openai-beta"))));

        MockUpstream.Hit hit =
                send("/v1/chat/completions", chat("m"), "OpenAI-Beta", "realtime=v1", "OpenAI-Organization", "org-x");

        assertThat(hit.headers())
                .containsEntry("openai-beta", "assistants=v2,realtime=v1")
                .doesNotContainKey("openai-organization");
    }

    @Test
    void aClientsAnthropicBetaAndOneMContextAreDroppedAndTheMappingStillOptsIn() {
        upstream.on(credential, json(200, AnthropicSdkTests.MESSAGE));
        pool(Pool.credential(credential)
                .platform(Platform.CLAUDE)
                .maps("claude-long", "claude-up[1m]")
                .maps("claude-short", "claude-up")
                .upstreamHeaders(new CredentialHeaders(null, null, null, "prompt-caching-2024-07-31", List.of())));
        String body = "{\"model\":\"%s\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

        MockUpstream.Hit shortContext = send(
                "/v1/messages",
                body.formatted("claude-short"),
                "anthropic-beta",
                "context-1m-2025-08-07",
                "anthropic-version",
                "2023-06-01");
        assertThat(shortContext.headers().get("anthropic-beta")).isEqualTo("prompt-caching-2024-07-31");

        MockUpstream.Hit longContext =
                send("/v1/messages", body.formatted("claude-long"), "anthropic-version", "2023-06-01");
        assertThat(longContext.headers().get("anthropic-beta"))
                .isEqualTo("prompt-caching-2024-07-31,context-1m-2025-08-07");
    }
}
