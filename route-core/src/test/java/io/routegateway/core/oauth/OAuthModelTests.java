package io.routegateway.core.oauth;

import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Platform;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.testing.CredentialBuilder.credential;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OAuthModelTests {

    private static final Instant EXPIRES = Instant.parse("2026-09-02T11:00:00Z");
    private static final Instant REFRESHED = Instant.parse("2026-09-02T10:00:00Z");

    @Test
    void authStatesUseTheirWireNames() throws Exception {
        assertThat(Json.write(AuthState.AUTHORIZED)).isEqualTo("\"authorized\"");
        assertThat(Json.write(AuthState.EXPIRED)).isEqualTo("\"expired\"");
        assertThat(Json.write(AuthState.UNAUTHORIZED)).isEqualTo("\"unauthorized\"");
        assertThat(Json.MAPPER.readValue("\" Expired \"", AuthState.class)).isEqualTo(AuthState.EXPIRED);
        assertThatThrownBy(() -> AuthState.fromWire("revoked")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theStatusIsSnakeCaseAndRoundTrips() throws Exception {
        OAuthStatus status = new OAuthStatus(AuthState.AUTHORIZED, EXPIRES, "acct-1", REFRESHED);
        JsonNode json = Json.MAPPER.readTree(Json.write(status));

        assertThat(json.get("state").asText()).isEqualTo("authorized");
        assertThat(json.get("access_expires_at").asText()).isEqualTo("2026-09-02T11:00:00Z");
        assertThat(json.get("account_id").asText()).isEqualTo("acct-1");
        assertThat(json.get("refreshed_at").asText()).isEqualTo("2026-09-02T10:00:00Z");
        assertThat(json.size()).isEqualTo(4);
        assertThat(Json.MAPPER.treeToValue(json, OAuthStatus.class)).isEqualTo(status);
    }

    @Test
    void onlyAnAuthorizedStatusIsUsable() {
        assertThat(new OAuthStatus(AuthState.AUTHORIZED, EXPIRES, null, REFRESHED).usable())
                .isTrue();
        assertThat(new OAuthStatus(AuthState.EXPIRED, EXPIRES, null, REFRESHED).usable())
                .isFalse();
        assertThat(OAuthStatus.unauthorized().usable()).isFalse();
        assertThatThrownBy(() -> new OAuthStatus(null, null, null, null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSnapshotCarriesItsOAuthStatusAndOnlyANonAuthorizedOneIsUnavailable() throws Exception {
        CredentialSnapshot authorized = credential("c1")
                .official(Platform.CODEX)
                .oauth(new OAuthStatus(AuthState.AUTHORIZED, EXPIRES, "acct-1", REFRESHED))
                .build();
        CredentialSnapshot expired = credential("c2")
                .official(Platform.CODEX)
                .oauth(new OAuthStatus(AuthState.EXPIRED, EXPIRES, "acct-1", REFRESHED))
                .build();
        CredentialSnapshot staticToken =
                credential("c3").official(Platform.CODEX).build();

        assertThat(authorized.authUnavailable()).isFalse();
        assertThat(expired.authUnavailable()).isTrue();
        assertThat(credential("c4")
                        .official(Platform.CLAUDE)
                        .oauth(OAuthStatus.unauthorized())
                        .build()
                        .authUnavailable())
                .isTrue();
        assertThat(staticToken.authUnavailable()).isFalse();

        String wire = Json.write(expired);
        CredentialSnapshot read = Json.MAPPER.readValue(wire, CredentialSnapshot.class);
        assertThat(read.oauth()).isEqualTo(expired.oauth());
        assertThat(Json.MAPPER.readTree(wire).get("oauth").get("state").asText())
                .isEqualTo("expired");
        assertThat(Json.MAPPER.readTree(wire).has("auth_unavailable")).isFalse();
    }

    @Test
    void aSnapshotWrittenBeforeTheFieldExistedReadsAsNoOAuth() throws Exception {
        CredentialSnapshot snapshot = credential("c1").build();
        ObjectNode legacy = (ObjectNode) Json.MAPPER.readTree(Json.write(snapshot));
        legacy.remove("oauth");

        CredentialSnapshot read = Json.MAPPER.treeToValue(legacy, CredentialSnapshot.class);
        assertThat(read.oauth()).isNull();
        assertThat(read.authUnavailable()).isFalse();
    }

    @Test
    void withHealthKeepsTheOAuthStatus() {
        CredentialSnapshot snapshot = credential("c1")
                .official(Platform.CODEX)
                .oauth(new OAuthStatus(AuthState.AUTHORIZED, EXPIRES, "acct-1", REFRESHED))
                .build();
        assertThat(snapshot.withHealth(snapshot.health()).oauth()).isEqualTo(snapshot.oauth());
    }

    @Test
    void materialNeverPrintsItsTokens() {
        OAuthMaterial material = new OAuthMaterial("at-secret-123", "rt-secret-456", EXPIRES, "acct-1");
        assertThat(material.toString())
                .doesNotContain("at-secret-123")
                .doesNotContain("rt-secret-456")
                .contains("acct-1")
                .contains("2026-09-02T11:00:00Z");
        assertThat(new OAuthMaterial("at", null, null, null).toString()).contains("refreshToken=none");
    }

    @Test
    void materialRequiresAnAccessTokenAndTreatsBlankOptionalsAsAbsent() {
        assertThatThrownBy(() -> new OAuthMaterial(" ", "rt", EXPIRES, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OAuthMaterial(null, "rt", EXPIRES, null))
                .isInstanceOf(IllegalArgumentException.class);
        OAuthMaterial material = new OAuthMaterial("at", " ", EXPIRES, "");
        assertThat(material.refreshToken()).isNull();
        assertThat(material.hasRefreshToken()).isFalse();
        assertThat(material.accountId()).isNull();
    }

    @Test
    void aRefreshWithoutARotatedTokenOrAccountKeepsTheHeldOnes() {
        OAuthMaterial before = new OAuthMaterial("at-1", "rt-1", REFRESHED, "acct-1");
        OAuthMaterial rotated = OAuthMaterial.merge(before, new OAuthMaterial("at-2", "rt-2", EXPIRES, "acct-2"));
        OAuthMaterial kept = OAuthMaterial.merge(before, new OAuthMaterial("at-2", null, EXPIRES, null));

        assertThat(rotated).isEqualTo(new OAuthMaterial("at-2", "rt-2", EXPIRES, "acct-2"));
        assertThat(kept).isEqualTo(new OAuthMaterial("at-2", "rt-1", EXPIRES, "acct-1"));
    }
}
