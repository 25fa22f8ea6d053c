package io.routegateway.gateway.support;

import java.net.URL;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.google.genai.Client;
import com.google.genai.types.HttpOptions;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;

/**
 * The official SDK clients, pointed at the running gateway with an access key: the one place the
 * SDK tests build them (no retries, so a refused request is seen as the SDK's exception).
 */
public final class Sdks {

    private Sdks() {}

    /** The gateway's base URL without its trailing slash. */
    private static String base(URL gateway) {
        String base = gateway.toString();
        return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    }

    public static AnthropicClient anthropic(URL gateway, String keyId) {
        return AnthropicOkHttpClient.builder()
                .apiKey(Pool.plaintext(keyId))
                .baseUrl(base(gateway))
                .maxRetries(0)
                .build();
    }

    public static OpenAIClient openAi(URL gateway, String keyId) {
        return OpenAIOkHttpClient.builder()
                .apiKey(Pool.plaintext(keyId))
                .baseUrl(base(gateway) + "/v1")
                .maxRetries(0)
                .build();
    }

    public static Client gemini(URL gateway, String keyId) {
        return Client.builder()
                .apiKey(Pool.plaintext(keyId))
                .httpOptions(HttpOptions.builder()
                        .baseUrl(base(gateway))
                        .apiVersion("v1beta")
                        .build())
                .build();
    }
}
