package io.routegateway.core.failure;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SecretMaskTests {

    private static final String SECRET = "sk-live-0123456789abcdef";

    @Test
    void everyOccurrenceOfTheSecretIsMasked() {
        assertThat(SecretMask.apply("bad key " + SECRET + ", really " + SECRET, SECRET))
                .isEqualTo("bad key [redacted], really [redacted]");
    }

    @Test
    void textWithoutTheSecretAndMissingTextStayAsTheyAre() {
        String text = "upstream returned 429";
        assertThat(SecretMask.apply(text, SECRET)).isSameAs(text);
        assertThat(SecretMask.apply((String) null, SECRET)).isNull();
        assertThat(SecretMask.apply(text, null)).isSameAs(text);
    }

    @Test
    void aSecretTooShortToBeDistinctiveIsNotSearchedFor() {
        assertThat(SecretMask.apply("the key", "key")).isEqualTo("the key");
        assertThat(SecretMask.apply("ab1234567", "b1234567")).isEqualTo("a[redacted]");
    }

    @Test
    void transientPermanentAndQuotaVerdictsAreMaskedInMessageAndBody() {
        String body = "{\"error\":{\"message\":\"Incorrect API key provided: " + SECRET + "\"}}";
        Verdict permanent = SecretMask.apply(
                new Verdict.Permanent(FailureKind.UPSTREAM_STATUS, 401, "key " + SECRET + " revoked", body), SECRET);
        assertThat(permanent.toString()).doesNotContain(SECRET).contains(SecretMask.MASK);
        assertThat(((Verdict.Permanent) permanent).status()).isEqualTo(401);

        Verdict transientFailure = SecretMask.apply(
                new Verdict.Transient(FailureKind.SEMANTIC_RESPONSE_TRANSIENT, 200, SECRET, body, true), SECRET);
        assertThat(transientFailure)
                .isEqualTo(new Verdict.Transient(
                        FailureKind.SEMANTIC_RESPONSE_TRANSIENT,
                        200,
                        SecretMask.MASK,
                        body.replace(SECRET, SecretMask.MASK),
                        true));

        Verdict quota = SecretMask.apply(new Verdict.QuotaExhausted(402, "quota of " + SECRET, body), SECRET);
        assertThat(quota.toString()).doesNotContain(SECRET);
    }

    @Test
    void verdictsWithoutTheSecretAreReturnedAsTheyAre() {
        Verdict failure = new Verdict.Transient(FailureKind.UPSTREAM_STATUS, 429, "upstream returned 429", "{}", true);
        assertThat(SecretMask.apply(failure, SECRET)).isSameAs(failure);
        assertThat(SecretMask.apply(Verdict.SUCCESS, SECRET)).isSameAs(Verdict.SUCCESS);
        Verdict clientError = new Verdict.NotAFailure(400);
        assertThat(SecretMask.apply(clientError, SECRET)).isSameAs(clientError);
    }
}
