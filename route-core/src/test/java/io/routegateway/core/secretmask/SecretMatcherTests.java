package io.routegateway.core.secretmask;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;

import io.routegateway.core.failure.SecretMask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** One test per encoding an upstream may quote the pooled key in: each is masked, nothing else is. */
class SecretMatcherTests {

    /** A key with the characters that have escapes of their own ('/', '+', '=' and '-'). */
    private static final String SECRET = "sk-proj/AbC+def=0123456789_xyz";

    private static String mask(String text) {
        return SecretMask.apply(text, SECRET);
    }

    private static void assertMasked(String quoted) {
        String text = "{\"error\":{\"message\":\"Incorrect API key provided: " + quoted + ". Check it.\"}}";
        assertThat(mask(text))
                .isEqualTo("{\"error\":{\"message\":\"Incorrect API key provided: [redacted]. Check it.\"}}");
    }

    @Test
    void theKeyAsItIs() {
        assertMasked(SECRET);
    }

    @Test
    void jsonEscapedSolidus() {
        assertMasked(SECRET.replace("/", "\\/"));
    }

    @Test
    void everyCharacterAsAJsonUnicodeEscapeInEitherHexCase() {
        StringBuilder lower = new StringBuilder();
        StringBuilder upper = new StringBuilder();
        for (char c : SECRET.toCharArray()) {
            lower.append(String.format("\\u%04x", (int) c));
            upper.append(String.format("\\u%04X", (int) c));
        }
        assertMasked(lower.toString());
        assertMasked(upper.toString());
    }

    @Test
    void aSingleCharacterEscapedAnywhereInTheKey() {
        for (int i = 0; i < SECRET.length(); i++) {
            String quoted =
                    SECRET.substring(0, i) + String.format("\\u%04x", (int) SECRET.charAt(i)) + SECRET.substring(i + 1);
            assertMasked(quoted);
        }
    }

    @Test
    void jsonQuotedInsideJsonTheEscapesEscapedAgain() {
        // an upstream that embeds its own JSON error as a string: \/ becomes \\\/ and \u0073 becomes \\u0073
        assertMasked(SECRET.replace("/", "\\\\\\/"));
        assertMasked("\\\\u0073" + SECRET.substring(1));
    }

    @Test
    void hexByteEscapes() {
        assertMasked("\\x73\\x6b" + SECRET.substring(2));
    }

    @Test
    void urlEncodedInUpperAndLowerHex() {
        String upper = URLEncoder.encode(SECRET, StandardCharsets.UTF_8);
        assertThat(upper).isNotEqualTo(SECRET).contains("%2F", "%2B", "%3D");
        assertMasked(upper);
        assertMasked(upper.replace("%2F", "%2f").replace("%2B", "%2b").replace("%3D", "%3d"));
        StringBuilder every = new StringBuilder();
        for (byte b : SECRET.getBytes(StandardCharsets.UTF_8)) {
            every.append('%').append(String.format("%02x", b));
        }
        assertMasked(every.toString());
    }

    @Test
    void urlEncodedTwice() {
        assertMasked(URLEncoder.encode(URLEncoder.encode(SECRET, StandardCharsets.UTF_8), StandardCharsets.UTF_8));
    }

    @Test
    void htmlNumericCharacterReferences() {
        assertMasked("&#115;&#x6B;" + SECRET.substring(2));
    }

    @Test
    void base64WithAndWithoutPadding() {
        String padded = Base64.getEncoder().encodeToString(SECRET.getBytes(StandardCharsets.UTF_8));
        assertThat(mask("key=" + padded))
                .doesNotContain(padded.substring(0, 30))
                .contains(SecretMask.MASK);
        String bare = Base64.getEncoder().withoutPadding().encodeToString(SECRET.getBytes(StandardCharsets.UTF_8));
        assertThat(mask("key=" + bare)).contains(SecretMask.MASK).hasSizeLessThan(("key=" + bare).length() - 20);
    }

    @Test
    void base64UrlWithAndWithoutPadding() {
        byte[] raw = (SECRET + "??>").getBytes(StandardCharsets.UTF_8); // makes both '-' and '_' likely
        String secret = new String(raw, StandardCharsets.UTF_8);
        String url = Base64.getUrlEncoder().encodeToString(raw);
        String masked = SecretMask.apply("token " + url, secret);
        assertThat(masked).contains(SecretMask.MASK);
        assertThat(masked.length()).isLessThan(("token " + url).length() - 20);
        String bare = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        assertThat(SecretMask.apply(bare, secret)).contains(SecretMask.MASK);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2})
    void base64OfALongerStringAtEachByteAlignment(int prefixBytes) {
        // an Authorization: Basic header echoed back, or the key inside a base64 JSON blob
        String prefix = "user:".substring(0, prefixBytes);
        String around = prefix + SECRET + "!tail";
        String encoded = Base64.getEncoder().encodeToString(around.getBytes(StandardCharsets.UTF_8));
        String masked = mask("Basic " + encoded);
        assertThat(masked).contains(SecretMask.MASK);
        // what is left of the encoding carries no more than a few bits on either side of the key
        String rest = masked.substring("Basic ".length()).replace(SecretMask.MASK, " ");
        byte[] leftover = rest.replace(" ", "").getBytes(StandardCharsets.US_ASCII);
        assertThat(leftover.length)
                .isLessThanOrEqualTo(16); // "user:" and "!tail" encoded, a partial character each side
        // and the same inside a JSON string where the upstream escaped its '/'
        assertThat(mask("\"" + encoded.replace("/", "\\/") + "\"")).contains(SecretMask.MASK);
    }

    @Test
    void hexInEitherCase() {
        String hex = HexFormat.of().formatHex(SECRET.getBytes(StandardCharsets.UTF_8));
        assertMasked(hex);
        assertMasked(hex.toUpperCase(Locale.ROOT));
    }

    @Test
    void escapesMixedWithinOneOccurrence() {
        assertMasked("%73\\u006b-proj\\/AbC%2Bdef&#61;0123456789_xyz");
    }

    @Test
    void textWithoutTheKeyOrWithAnotherKeyIsReturnedAsItIs() {
        String text = "{\"error\":\"bad key sk-proj\\/AbC+def=0123456788_xyz, \\u0041 %41 &#65; QUJD\"}";
        assertThat(mask(text)).isSameAs(text);
        String almost = SECRET.substring(0, SECRET.length() - 1);
        assertThat(mask(almost)).isSameAs(almost);
    }

    @Test
    void anEscapeCutShortOrMalformedIsNotAMatch() {
        for (String text : new String[] {
            "\\",
            "\\u",
            "\\u00",
            "%",
            "%2",
            "&",
            "&#",
            "&#x7",
            "\\u00zz",
            "%zz",
            "&#115",
            SECRET.substring(0, 10) + "\\u00"
        }) {
            assertThat(mask(text)).isSameAs(text);
        }
    }

    @Test
    void theByteViewMasksRawBytesAndLeavesEveryOtherByteAsItWas() {
        SecretMatcher bytes = SecretMatcher.forBytes(SECRET);
        byte[] body =
                ("{\"é\":\"" + SECRET.replace("/", "\\/") + "\",\"x\":\"\u00ff\"}").getBytes(StandardCharsets.UTF_8);
        assertThat(new String(bytes.mask(body), StandardCharsets.UTF_8))
                .isEqualTo("{\"é\":\"[redacted]\",\"x\":\"\u00ff\"}");
        byte[] clean = "{\"é\":1}".getBytes(StandardCharsets.UTF_8);
        assertThat(bytes.mask(clean)).isSameAs(clean);
    }

    @Test
    void aNonAsciiSecretIsFoundAsItsUtf8BytesInTheByteViewAndEscapedInTheTextView() {
        String secret = "clé-secrète-0123456789";
        byte[] body = ("x " + secret + " y").getBytes(StandardCharsets.UTF_8);
        assertThat(new String(SecretMatcher.forBytes(secret).mask(body), StandardCharsets.UTF_8))
                .isEqualTo("x [redacted] y");
        assertThat(SecretMask.apply("x " + secret.replace("é", "\\u00e9") + " y", secret))
                .isEqualTo("x [redacted] y");
        assertThat(SecretMask.apply("x " + URLEncoder.encode(secret, StandardCharsets.UTF_8) + " y", secret))
                .isEqualTo("x [redacted] y");
    }

    @Test
    void aPathologicalRunOfBackslashesIsScannedQuickly() {
        String text = "\\".repeat(200_000) + "u0073";
        assertThat(mask(text)).isSameAs(text);
    }
}
