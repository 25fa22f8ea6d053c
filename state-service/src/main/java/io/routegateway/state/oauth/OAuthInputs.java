package io.routegateway.state.oauth;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The bodies of the OAuth admin endpoints as the OpenAPI document describes them. The resource reads
 * each body as JSON and {@link OAuthAdminRules} decides which form was sent, so these records are
 * never bound; every token in them is write-only.
 */
final class OAuthInputs {

    private OAuthInputs() {}

    /**
     * {@code PUT …/oauth}: either {@code credentials_json} (the file the platform's CLI stores, as
     * text or as its JSON object) or the token fields; never both.
     */
    @Schema(name = "OAuthMaterialInput")
    record Material(
            @Schema(
                    writeOnly = true,
                    description = "the credentials file pasted: its text, or its JSON object (at most 65,536"
                            + " characters)")
            Object credentialsJson,

            @Schema(writeOnly = true) String accessToken,
            @Schema(writeOnly = true) String refreshToken,

            @Schema(description = "ISO-8601 instant, or epoch seconds (below 10^11) / milliseconds")
            Object expiresAt,

            String accountId) {}

    /** {@code POST …/oauth/authorize}: the configured redirect URI when absent. */
    @Schema(name = "OAuthAuthorizeInput")
    record Authorize(String redirectUri) {}

    /** {@code POST …/oauth/callback}: the address the browser landed on, or the code and state. */
    @Schema(name = "OAuthCallbackInput")
    record Callback(
            @Schema(description = "the address the browser landed on (…?code=…&state=…)")
            String callbackUrl,

            @Schema(writeOnly = true, description = "the code alone, or Claude's code#state")
            String code,

            String state) {}
}
