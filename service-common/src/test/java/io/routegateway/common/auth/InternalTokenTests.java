package io.routegateway.common.auth;

import io.routegateway.core.access.BearerToken;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InternalTokenTests {

    static final String TOKEN = "0123456789abcdef0123456789abcdef";

    @Test
    void theHeaderItSendsIsTheOneItAccepts() {
        InternalToken token = new InternalToken(TOKEN);
        assertThat(token.authorization()).isEqualTo("Bearer " + TOKEN);
        assertThat(token.check(token.authorization())).isEqualTo(BearerToken.Check.VALID);
        assertThat(token.check("Bearer " + TOKEN.replace('0', '1'))).isEqualTo(BearerToken.Check.INVALID);
        assertThat(token.check(null)).isEqualTo(BearerToken.Check.MISSING);
    }

    @Test
    void aMissingOrShortTokenIsRefusedWithoutShowingIt() {
        assertThatThrownBy(() -> new InternalToken((String) null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ROUTE_INTERNAL_TOKEN");
        assertThatThrownBy(() -> new InternalToken("  "))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is not set");
        String shortToken = TOKEN.substring(1);
        assertThatThrownBy(() -> new InternalToken(shortToken))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("at least " + InternalToken.MIN_LENGTH)
                .hasMessageNotContaining(shortToken);
    }

    @Test
    void itNeverPrintsTheToken() {
        assertThat(new InternalToken(TOKEN).toString()).doesNotContain(TOKEN);
    }
}
