package io.routegateway.core.identity;

import java.security.SecureRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ApiTokenSecretTests {

    @Test
    void aGeneratedTokenLooksLikeATokenAndHashesStably() {
        String token = ApiTokenSecret.generate(new SecureRandom());
        assertThat(ApiTokenSecret.looksLikeToken(token)).isTrue();
        assertThat(ApiTokenSecret.hash(token)).hasSize(64).isEqualTo(ApiTokenSecret.hash(token));
        assertThat(ApiTokenSecret.hash(token)).doesNotContain(token.substring(4));
        assertThat(ApiTokenSecret.generate(new SecureRandom())).isNotEqualTo(token);
    }

    @Test
    void anythingElseIsNotAToken() {
        assertThat(ApiTokenSecret.looksLikeToken(null)).isFalse();
        assertThat(ApiTokenSecret.looksLikeToken("rk-abcdefghijklmnopqrstu")).isFalse();
        assertThat(ApiTokenSecret.looksLikeToken("rgt-short")).isFalse();
        assertThat(ApiTokenSecret.looksLikeToken("rgt-" + "a".repeat(200))).isFalse();
        assertThat(ApiTokenSecret.looksLikeToken("rgt-abcdefghijklmnop\u0000")).isFalse();
    }

    @Test
    void hashesCompareByContent() {
        assertThat(ApiTokenSecret.sameHash("ab", "ab")).isTrue();
        assertThat(ApiTokenSecret.sameHash("ab", "ac")).isFalse();
        assertThat(ApiTokenSecret.sameHash(null, "ab")).isFalse();
    }
}
