package io.routegateway.core.select;

import java.time.Instant;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.model.Platform;
import io.routegateway.core.oauth.AuthState;
import io.routegateway.core.oauth.OAuthStatus;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.testing.CredentialBuilder.credential;
import static org.assertj.core.api.Assertions.assertThat;

class PoolViewShapeTests {

    private static final Instant EXPIRES = Instant.parse("2026-09-02T11:00:00Z");

    @Test
    void anAccessTokenThatBecomesUnusableChangesTheRoutingShape() {
        CredentialSnapshot authorized = official(AuthState.AUTHORIZED, 1);
        CredentialSnapshot expired = official(AuthState.EXPIRED, 2);

        assertThat(PoolView.sameRoutingShape(authorized, expired)).isFalse();
        assertThat(PoolView.sameRoutingShape(expired, authorized)).isFalse();
    }

    @Test
    void aRefreshedTokenOfAnAuthorizedCredentialKeepsTheShape() {
        CredentialSnapshot before = official(AuthState.AUTHORIZED, 1);
        CredentialSnapshot after = credential("c1")
                .official(Platform.CODEX)
                .version(2)
                .oauth(new OAuthStatus(AuthState.AUTHORIZED, EXPIRES.plusSeconds(3600), "acct", EXPIRES))
                .build();

        assertThat(PoolView.sameRoutingShape(before, after)).isTrue();
    }

    private static CredentialSnapshot official(AuthState state, long version) {
        return credential("c1")
                .official(Platform.CODEX)
                .version(version)
                .oauth(new OAuthStatus(state, EXPIRES, "acct", null))
                .build();
    }
}
