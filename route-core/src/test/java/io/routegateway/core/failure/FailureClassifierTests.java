package io.routegateway.core.failure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class FailureClassifierTests {

    @ParameterizedTest(name = "status {0} is transient")
    @ValueSource(ints = {408, 401, 403, 429})
    void retryableStatusesAreTransient(int status) {
        assertThat(FailureClassifier.classifyStatus(status)).isEqualTo(FailureClass.TRANSIENT);
    }

    @ParameterizedTest(name = "5xx status {0} is transient")
    @ValueSource(ints = {500, 502, 503, 504, 599})
    void everyServerErrorIsTransient(int status) {
        assertThat(FailureClassifier.classifyStatus(status)).isEqualTo(FailureClass.TRANSIENT);
    }

    @Test
    void noStatusAtAllIsTransient() {
        assertThat(FailureClassifier.classifyStatus(null)).isEqualTo(FailureClass.TRANSIENT);
    }

    @ParameterizedTest(name = "status {0} is not a failure")
    @ValueSource(ints = {400, 404, 405, 409, 413, 422, 402, 600})
    void otherClientStatusesAreNotFailures(int status) {
        assertThat(FailureClassifier.classifyStatus(status)).isEqualTo(FailureClass.NONE);
        assertThat(FailureClassifier.speaksAboutCredential(status)).isFalse();
    }

    @ParameterizedTest(name = "2xx status {0} is none here")
    @ValueSource(ints = {200, 201, 204})
    void successStatusesAreNone(int status) {
        assertThat(FailureClassifier.classifyStatus(status)).isEqualTo(FailureClass.NONE);
    }

    @ParameterizedTest(name = "permanent marker: {0}")
    @ValueSource(
            strings = {
                "invalid_grant",
                "INVALID_GRANT",
                "{\"error\":\"Invalid_Grant\",\"error_description\":\"expired\"}",
                "refresh token has been revoked",
                "Refresh Token Has Been Revoked",
                "token has been revoked",
                "Your TOKEN HAS BEEN REVOKED by the admin",
                "官方 oauth 凭证已失效",
                "官方 OAuth 凭证已失效，请重新授权"
            })
    void permanentTextWinsOverAFailureStatusOnly(String text) {
        // OutcomeClassifier combines the two (OutcomeClassifierTests$Permanent): the marker is
        // evidence, and only a failure status (or none) may carry evidence about the credential
        assertThat(FailureClassifier.isPermanentEvidence(ClientEcho.NONE, text)).isTrue();
        assertThat(FailureClassifier.speaksAboutCredential(401)).isTrue();
        assertThat(FailureClassifier.speaksAboutCredential(429)).isTrue();
        assertThat(FailureClassifier.speaksAboutCredential(503)).isTrue();
        assertThat(FailureClassifier.speaksAboutCredential(null)).isTrue();
        assertThat(FailureClassifier.speaksAboutCredential(400))
                .as("a client-side status says nothing about the credential")
                .isFalse();
    }

    @Test
    void aMarkerTheClientSentIsNotEvidence() {
        ClientEcho echo =
                ClientEcho.of("{\"model\":\"INVALID_GRANT\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8), null);
        assertThat(FailureClassifier.isPermanentEvidence(echo, "The model `invalid_grant` does not exist"))
                .isFalse();
        assertThat(FailureClassifier.isPermanentEvidence(echo, "invalid_grant; token has been revoked"))
                .as("a second marker the client did not send still counts")
                .isTrue();
    }

    @Test
    void nearMissesOfPermanentTextAreNotPermanent() {
        assertThat(FailureClassifier.isPermanentText("invalid grant type")).isFalse();
        assertThat(FailureClassifier.isPermanentText("token has expired")).isFalse();
        assertThat(FailureClassifier.isPermanentText(null)).isFalse();
        assertThat(FailureClassifier.isPermanentText("")).isFalse();
    }

    @ParameterizedTest(name = "same-credential retry allowed on {0}")
    @ValueSource(ints = {408, 429, 500, 503, 400, 404})
    void sameCredentialRetryOnOtherFailures(int status) {
        assertThat(FailureClassifier.shouldRetrySameCredentialStatus(status)).isTrue();
    }

    @ParameterizedTest(name = "no same-credential retry on {0}")
    @ValueSource(ints = {401, 403, 200, 201, 299})
    void neverRetrySameCredentialOnAuthOrSuccess(int status) {
        assertThat(FailureClassifier.shouldRetrySameCredentialStatus(status)).isFalse();
    }

    @Test
    void kindForForwardingAndModelTests() {
        assertThat(FailureClassifier.kindFor(429, false)).isEqualTo(FailureKind.UPSTREAM_STATUS);
        assertThat(FailureClassifier.kindFor(null, false)).isEqualTo(FailureKind.TRANSPORT);
        assertThat(FailureClassifier.kindFor(503, true)).isEqualTo(FailureKind.MODEL_TEST_STATUS);
        assertThat(FailureClassifier.kindFor(null, true)).isEqualTo(FailureKind.MODEL_TEST);
    }
}
