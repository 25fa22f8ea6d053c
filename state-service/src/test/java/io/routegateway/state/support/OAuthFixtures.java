package io.routegateway.state.support;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.state.repository.PendingAuthorizationEntity;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static io.routegateway.state.support.OutcomeFixtures.inSession;

/** Official credentials onboarded through the admin API, and the material a platform's CLI stores. */
public final class OAuthFixtures {

    private OAuthFixtures() {}

    /** An official credential created without a secret: it awaits authorization. */
    public static String awaitingAuthorization(String platform) {
        return official(platform, null);
    }

    /** An official credential; {@code secret} null: awaiting authorization, else a static token. */
    public static String official(String platform, String secret) {
        String id = unique("official-" + platform);
        Map<String, Object> body = new HashMap<>(Map.of(
                "id",
                id,
                "name",
                "subscription " + id,
                "platform",
                platform,
                "kind",
                "official",
                "base_url",
                "https://official.example.test"));
        if (secret != null) {
            body.put("secret", secret);
        }
        return admin().body(body)
                .post("/admin/v1/credentials")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    /** Tokens unlike any other test's, so an assertion that one never appears means something. */
    public record Tokens(String access, String refresh) {

        public static Tokens fresh() {
            return new Tokens("at-" + UUID.randomUUID(), "rt-" + UUID.randomUUID());
        }
    }

    /** Claude Code's {@code ~/.claude/.credentials.json}; {@code expiresAt} is epoch milliseconds. */
    public static String claudeFile(Tokens tokens, Instant expiresAt) {
        return Json.write(Map.of(
                "claudeAiOauth",
                Map.of(
                        "accessToken", tokens.access(),
                        "refreshToken", tokens.refresh(),
                        "expiresAt", expiresAt.toEpochMilli(),
                        "scopes", List.of("user:inference"))));
    }

    /** The explicit token fields. */
    public static Map<String, Object> tokenFields(Tokens tokens, Instant expiresAt, String accountId) {
        Map<String, Object> body = new HashMap<>(Map.of(
                "access_token", tokens.access(),
                "refresh_token", tokens.refresh(),
                "expires_at", expiresAt.truncatedTo(ChronoUnit.SECONDS).toString()));
        if (accountId != null) {
            body.put("account_id", accountId);
        }
        return body;
    }

    /** The newest snapshot of a credential on the state topic; null when none was published. */
    public static CredentialSnapshot latestSnapshot(String credentialId) {
        List<CredentialSnapshot> snapshots = TestKafka.readKey(Topics.CREDENTIAL_STATE, credentialId).stream()
                .filter(record -> record.value() != null)
                .map(record -> {
                    try {
                        return Json.MAPPER.readValue(record.value(), CredentialSnapshot.class);
                    } catch (java.io.IOException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .toList();
        return snapshots.isEmpty() ? null : snapshots.get(snapshots.size() - 1);
    }

    public static List<PendingAuthorizationEntity> pending(String credentialId) {
        return inSession(
                () -> PendingAuthorizationEntity.<PendingAuthorizationEntity>list("credentialId", credentialId));
    }
}
