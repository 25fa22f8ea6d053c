package io.routegateway.core.access;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AccessKeysTests {

    @Test
    void hashIsLowercaseHexSha256() {
        assertThat(AccessKeys.hash("abc"))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void matchesComparesThePlaintextsHashWithTheStoredOneInAnyCase() {
        String stored = AccessKeys.hash("rk-secret").toUpperCase();
        assertThat(AccessKeys.matches("rk-secret", stored)).isTrue();
        assertThat(AccessKeys.matches("rk-secreT", stored)).isFalse();
        assertThat(AccessKeys.matches(null, stored)).isFalse();
        assertThat(AccessKeys.matches("rk-secret", null)).isFalse();
    }

    @Test
    void constantTimeEqualsIsPlainEqualityWithoutNulls() {
        assertThat(AccessKeys.constantTimeEquals("abcd", "abcd")).isTrue();
        assertThat(AccessKeys.constantTimeEquals("abcd", "abce")).isFalse();
        assertThat(AccessKeys.constantTimeEquals("abcd", "abc")).isFalse();
        assertThat(AccessKeys.constantTimeEquals(null, null)).isFalse();
    }
}
