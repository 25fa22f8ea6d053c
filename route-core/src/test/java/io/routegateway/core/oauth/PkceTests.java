package io.routegateway.core.oauth;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.routegateway.core.policy.ValidationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PkceTests {

    @Test
    void theChallengeIsTheRfc7636AppendixBExample() {
        // RFC 7636 appendix B: this verifier has this S256 challenge
        assertThat(Pkce.challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
                .isEqualTo("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    }

    @Test
    void verifierAndStateAreBase64urlOfTheRandomBytes() {
        byte[] bytes = new byte[Pkce.VERIFIER_BYTES];
        Arrays.fill(bytes, (byte) 0xFB);
        String verifier = Pkce.verifier(bytes);
        assertThat(verifier).hasSize(43).matches("[A-Za-z0-9_-]+");
        String state = Pkce.state(new byte[Pkce.STATE_BYTES]);
        assertThat(state).hasSize(32).matches(Pkce.STATE);
        assertThatThrownBy(() -> Pkce.verifier(new byte[16])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Pkce.state(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theAuthorizeUrlCarriesEveryParameterEncoded() {
        String url = Pkce.authorizeUrl(
                "https://claude.ai/oauth/authorize?code=true",
                "9d1c250a-e61b-44d9-88ed-5944d1962f5e",
                "https://console.anthropic.com/oauth/code/callback",
                List.of("user:profile", "user:inference"),
                "CHALLENGE",
                "STATE0123456789abcdef",
                Map.of());
        assertThat(url)
                .isEqualTo("https://claude.ai/oauth/authorize?code=true&response_type=code"
                        + "&client_id=9d1c250a-e61b-44d9-88ed-5944d1962f5e"
                        + "&redirect_uri=https%3A%2F%2Fconsole.anthropic.com%2Foauth%2Fcode%2Fcallback"
                        + "&scope=user%3Aprofile%20user%3Ainference&code_challenge=CHALLENGE"
                        + "&code_challenge_method=S256&state=STATE0123456789abcdef");
    }

    @Test
    void anAuthorizeUrlWithoutAQueryStartsOneAndExtrasComeLast() {
        String url = Pkce.authorizeUrl(
                "http://localhost:8089/oauth/authorize",
                "client",
                "http://localhost:1455/auth/callback",
                List.of(),
                "C",
                "S",
                Map.of("access_type", "offline"));
        assertThat(url)
                .isEqualTo("http://localhost:8089/oauth/authorize?response_type=code&client_id=client"
                        + "&redirect_uri=http%3A%2F%2Flocalhost%3A1455%2Fauth%2Fcallback&code_challenge=C"
                        + "&code_challenge_method=S256&state=S&access_type=offline");
    }

    @Test
    void theCallbackUrlGivesCodeAndState() {
        assertThat(Pkce.parseCallbackUrl(
                        "http://localhost:1455/auth/callback?code=ac_123%2Fx&state=abcdefghijklmnop1234&scope=openid"))
                .isEqualTo(new Pkce.Callback("ac_123/x", "abcdefghijklmnop1234"));
        // Claude's manual page shows code#state
        assertThat(Pkce.parseCallbackUrl(
                        "https://console.anthropic.com/oauth/code/callback?code=abc#abcdefghijklmnop1234"))
                .isEqualTo(new Pkce.Callback("abc", "abcdefghijklmnop1234"));
        assertThat(Pkce.callback("abc#abcdefghijklmnop1234", null))
                .isEqualTo(new Pkce.Callback("abc", "abcdefghijklmnop1234"));
        assertThat(Pkce.callback(" abc ", " abcdefghijklmnop1234 "))
                .isEqualTo(new Pkce.Callback("abc", "abcdefghijklmnop1234"));
        assertThat(Pkce.callback("secret-code", "abcdefghijklmnop1234").toString())
                .doesNotContain("secret-code");
    }

    static Stream<Arguments> refusedCallbacks() {
        return Stream.of(
                Arguments.of("blank", "  ", OAuthCodes.CALLBACK),
                Arguments.of("not a URL", "http://exa mple/?code=1", OAuthCodes.CALLBACK),
                Arguments.of("no code", "http://localhost/cb?state=abcdefghijklmnop1234", OAuthCodes.CALLBACK),
                Arguments.of(
                        "the user declined",
                        "http://localhost/cb?error=access_denied&state=abcdefghijklmnop1234",
                        OAuthCodes.CALLBACK),
                Arguments.of(
                        "a repeated code",
                        "http://localhost/cb?code=a&code=b&state=abcdefghijklmnop1234",
                        OAuthCodes.CALLBACK),
                Arguments.of(
                        "a malformed escape",
                        "http://localhost/cb?code=%zz&state=abcdefghijklmnop1234",
                        OAuthCodes.CALLBACK),
                Arguments.of(
                        "a code with a NUL",
                        "http://localhost/cb?code=a%00b&state=abcdefghijklmnop1234",
                        OAuthCodes.CALLBACK),
                Arguments.of(
                        "a raw NUL",
                        "http://localhost/cb?code=a\u0000b&state=abcdefghijklmnop1234",
                        OAuthCodes.CALLBACK),
                Arguments.of("huge", "http://localhost/cb?code=" + "a".repeat(9000), OAuthCodes.CALLBACK),
                Arguments.of("no state", "http://localhost/cb?code=abc", OAuthCodes.STATE),
                Arguments.of("a short state", "http://localhost/cb?code=abc&state=short", OAuthCodes.STATE),
                Arguments.of(
                        "a state with odd characters",
                        "http://localhost/cb?code=abc&state=abcdefghijklmnop%27%3B--",
                        OAuthCodes.STATE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedCallbacks")
    void aRefusedCallbackNamesItsCode(String why, String url, String code) {
        assertThatThrownBy(() -> Pkce.parseCallbackUrl(url))
                .isInstanceOf(ValidationException.class)
                .extracting(e -> ((ValidationException) e).code())
                .isEqualTo(code);
    }

    @Test
    void aCodeWhoseEmbeddedStateDiffersFromTheOneSentIsRefused() {
        assertThatThrownBy(() -> Pkce.callback("abc#abcdefghijklmnop1234", "zzzzzzzzzzzzzzzzzzzz"))
                .extracting(e -> ((ValidationException) e).code())
                .isEqualTo(OAuthCodes.STATE);
        assertThatThrownBy(() -> Pkce.callback("a b", "abcdefghijklmnop1234"))
                .extracting(e -> ((ValidationException) e).code())
                .isEqualTo(OAuthCodes.CALLBACK);
    }

    static Stream<Arguments> refusedRedirects() {
        return Stream.of(
                Arguments.of("blank", " "),
                Arguments.of("relative", "/callback"),
                Arguments.of("not http", "javascript:alert(1)"),
                Arguments.of("a fragment", "http://localhost/cb#x"),
                Arguments.of("user info", "http://user:pw@localhost/cb"),
                Arguments.of("a line break", "http://localhost/cb\r\nX: 1"),
                Arguments.of("huge", "http://localhost/" + "a".repeat(3000)),
                Arguments.of("unparsable", "http://exa mple/"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedRedirects")
    void aRefusedRedirectUriIsTheRedirectCode(String why, String uri) {
        assertThatThrownBy(() -> Pkce.redirectUri(uri))
                .isInstanceOf(ValidationException.class)
                .extracting(e -> ((ValidationException) e).code())
                .isEqualTo(OAuthCodes.REDIRECT_URI);
    }

    @Test
    void aValidRedirectUriIsKeptStripped() {
        assertThat(Pkce.redirectUri(" http://localhost:1455/auth/callback "))
                .isEqualTo("http://localhost:1455/auth/callback");
    }
}
