package io.routegateway.core.failure;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class FingerprintTests {

    private static final String PLAIN = "quota exceeded for model sol";

    @ParameterizedTest(name = "U+{0}")
    @ValueSource(strings = {"3000", "00A0", "2002", "2009", "202F", "205F", "1680", "2028", "0085", "000B"})
    void everyUnicodeSpaceSeparatesWordsLikeAnAsciiSpace(String codePoint) {
        String space = Character.toString(Integer.parseInt(codePoint, 16));
        String relayed = "Quota" + space + "exceeded for" + space + space + "model sol" + space;

        assertThat(Fingerprint.normalize(relayed)).isEqualTo(PLAIN);
        assertThat(Fingerprint.of(429, relayed)).isEqualTo(Fingerprint.of(429, PLAIN));
    }

    @ParameterizedTest
    @ValueSource(strings = {"  quota\texceeded\nfor  model sol ", "\u3000quota exceeded\u00a0for model\u3000sol\u3000"})
    void leadingAndTrailingSpaceOfAnyKindIsDropped(String message) {
        assertThat(Fingerprint.normalize(message)).isEqualTo(PLAIN);
    }

    @ParameterizedTest
    @ValueSource(strings = {"quota exceeded for model\u200bsol", "quota exceeded for model-sol"})
    void charactersThatAreNoWhitespaceStillDistinguishMessages(String message) {
        assertThat(Fingerprint.of(429, message)).isNotEqualTo(Fingerprint.of(429, PLAIN));
    }

    @Test
    void theStatusOrNoneIsPartOfTheHashedText() throws Exception {
        assertThat(Fingerprint.of(429, "Rate  LIMITED")).isEqualTo(sha256("semantic_response_failed|429|rate limited"));
        assertThat(Fingerprint.of(null, "Rate limited"))
                .isEqualTo(sha256("semantic_response_failed|none|rate limited"));
        assertThat(Fingerprint.of(503, "rate limited")).isNotEqualTo(Fingerprint.of(429, "rate limited"));
    }

    private static String sha256(String text) throws Exception {
        return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }
}
