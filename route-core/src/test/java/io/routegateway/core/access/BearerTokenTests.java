package io.routegateway.core.access;

import org.junit.jupiter.api.Test;

import static io.routegateway.core.access.BearerToken.Check.INVALID;
import static io.routegateway.core.access.BearerToken.Check.MISSING;
import static io.routegateway.core.access.BearerToken.Check.VALID;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BearerTokenTests {

    static final String TOKEN = "internal-token-0123456789abcdef";

    @Test
    void theExpectedTokenIsValidInAnySchemeCaseAndWithSurroundingSpace() {
        assertThat(BearerToken.check("Bearer " + TOKEN, TOKEN)).isEqualTo(VALID);
        assertThat(BearerToken.check("bearer " + TOKEN, TOKEN)).isEqualTo(VALID);
        assertThat(BearerToken.check("BEARER   " + TOKEN + " ", TOKEN)).isEqualTo(VALID);
        assertThat(BearerToken.check(BearerToken.header(TOKEN), TOKEN)).isEqualTo(VALID);
    }

    @Test
    void anotherTokenAPrefixOrAnExtensionIsInvalid() {
        assertThat(BearerToken.check("Bearer " + TOKEN + "x", TOKEN)).isEqualTo(INVALID);
        assertThat(BearerToken.check("Bearer " + TOKEN.substring(1), TOKEN)).isEqualTo(INVALID);
        assertThat(BearerToken.check("Bearer " + TOKEN.toUpperCase(), TOKEN)).isEqualTo(INVALID);
        assertThat(BearerToken.check("Bearer ", TOKEN)).isEqualTo(INVALID);
        assertThat(BearerToken.check("Bearer \u0000", TOKEN)).isEqualTo(INVALID);
    }

    @Test
    void noHeaderOrAnotherSchemeIsMissing() {
        assertThat(BearerToken.check(null, TOKEN)).isEqualTo(MISSING);
        assertThat(BearerToken.check("", TOKEN)).isEqualTo(MISSING);
        assertThat(BearerToken.check(TOKEN, TOKEN)).isEqualTo(MISSING);
        assertThat(BearerToken.check("Basic " + TOKEN, TOKEN)).isEqualTo(MISSING);
        assertThat(BearerToken.check("Bearer", TOKEN)).isEqualTo(MISSING);
    }

    @Test
    void aBlankExpectedTokenAcceptsNothing() {
        assertThat(BearerToken.check("Bearer ", "")).isEqualTo(INVALID);
        assertThat(BearerToken.check("Bearer x", null)).isEqualTo(INVALID);
        assertThatThrownBy(() -> BearerToken.header(" ")).isInstanceOf(IllegalArgumentException.class);
    }
}
