package io.routegateway.state.support;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * state-service with the token endpoints of codex, claude and gemini pointed at {@link
 * MockTokenEndpoint} (grok has none configured), a 3 s HTTP timeout, a one-second refresher tick and a five-minute backoff.
 */
public class OAuthTestProfile implements QuarkusTestProfile {

    public static final String CODEX_CLIENT = "codex-test-client";
    public static final String CLAUDE_CLIENT = "claude-test-client";
    public static final String GEMINI_CLIENT = "gemini-test-client";
    public static final String GEMINI_SECRET = "gemini-test-client-secret";

    @Override
    public Map<String, String> getConfigOverrides() {
        String url = MockTokenEndpoint.url();
        return Map.ofEntries(
                Map.entry("route.oauth.codex.token-url", url),
                Map.entry("route.oauth.codex.client-id", CODEX_CLIENT),
                Map.entry("route.oauth.claude.token-url", url),
                Map.entry("route.oauth.claude.client-id", CLAUDE_CLIENT),
                Map.entry("route.oauth.gemini.token-url", url),
                Map.entry("route.oauth.gemini.client-id", GEMINI_CLIENT),
                Map.entry("route.oauth.gemini.client-secret", GEMINI_SECRET),
                Map.entry("route.oauth.grok.token-url", ""),
                Map.entry("route.oauth.grok.client-id", ""),
                Map.entry("route.oauth.http-timeout", "3s"),
                Map.entry("route.oauth.tick", "1s"),
                // long enough that no scheduled retry lands while a test looks at a backed-off credential
                Map.entry("route.oauth.backoff", "5m"));
    }
}
