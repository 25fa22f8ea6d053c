package io.routegateway.demo;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * OAuth material of the mock server as the onboarding API takes it: the four fields, and the
 * credentials file each platform's CLI writes after a login, as text to paste.
 *
 * <ul>
 *   <li>codex ({@code ~/.codex/auth.json}): {@code {"OPENAI_API_KEY":null,"tokens":{"id_token",
 *       "access_token","refresh_token","account_id"},"last_refresh"}}
 *   <li>claude ({@code ~/.claude/.credentials.json}): {@code {"claudeAiOauth":{"accessToken",
 *       "refreshToken","expiresAt" (epoch ms),"scopes","subscriptionType"}}}
 *   <li>gemini ({@code ~/.gemini/oauth_creds.json}): {@code {"access_token","refresh_token",
 *       "scope","token_type","id_token","expiry_date" (epoch ms)}}
 * </ul>
 */
final class CliFiles {

    private CliFiles() {}

    static ObjectNode grantView(OAuthServer.Grant grant) {
        ObjectNode view = JsonNodeFactory.instance
                .objectNode()
                .put("access_token", grant.accessToken())
                .put("refresh_token", grant.refreshToken())
                .put("expires_at", grant.expiresAt().toString())
                .put("account_id", grant.accountId());
        view.putObject("credentials_json")
                .put("codex", codex(grant).toString())
                .put("claude", claude(grant).toString())
                .put("gemini", gemini(grant).toString());
        return view;
    }

    static ObjectNode codex(OAuthServer.Grant grant) {
        ObjectNode file = JsonNodeFactory.instance.objectNode();
        file.putNull("OPENAI_API_KEY");
        file.putObject("tokens")
                .put("id_token", OAuthServer.idToken(grant.accountId()))
                .put("access_token", grant.accessToken())
                .put("refresh_token", grant.refreshToken())
                .put("account_id", grant.accountId());
        file.put(
                "last_refresh",
                grant.expiresAt().minus(OAuthServer.DEFAULT_ACCESS_TTL).toString());
        return file;
    }

    static ObjectNode claude(OAuthServer.Grant grant) {
        ObjectNode file = JsonNodeFactory.instance.objectNode();
        ObjectNode oauth = file.putObject("claudeAiOauth")
                .put("accessToken", grant.accessToken())
                .put("refreshToken", grant.refreshToken())
                .put("expiresAt", grant.expiresAt().toEpochMilli());
        oauth.putArray("scopes").add("user:inference").add("user:profile");
        oauth.put("subscriptionType", "max");
        return file;
    }

    static ObjectNode gemini(OAuthServer.Grant grant) {
        return JsonNodeFactory.instance
                .objectNode()
                .put("access_token", grant.accessToken())
                .put("refresh_token", grant.refreshToken())
                .put("scope", "https://www.googleapis.com/auth/cloud-platform openid")
                .put("token_type", "Bearer")
                .put("id_token", OAuthServer.idToken(grant.accountId()))
                .put("expiry_date", grant.expiresAt().toEpochMilli());
    }
}
