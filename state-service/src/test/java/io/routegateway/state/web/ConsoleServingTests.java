package io.routegateway.state.web;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.config.DecoderConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.response.Response;
import io.routegateway.state.support.AdminApiFixtures;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/** The console is served at /console by this service, under a Content-Security-Policy and without CORS. */
@QuarkusTest
class ConsoleServingTests {

    @Test
    void theConsolePageIsServedWithAStrictContentSecurityPolicy() {
        Response page = given().get("/console/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.contentType()).startsWith("text/html");
        assertThat(page.asString()).contains("<div id=\"root\">");
        String csp = page.header("Content-Security-Policy");
        assertThat(csp)
                .contains("default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'");
        assertThat(csp).doesNotContain("unsafe-eval");
        assertThat(csp.split(";")[1]).as("script-src has no unsafe-inline").doesNotContain("unsafe-inline");
        assertThat(page.header("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(page.header("X-Frame-Options")).isEqualTo("DENY");
    }

    @Test
    void thePageCarriesNoInlineScriptSoTheCspCanForbidThem() {
        String html = given().get("/console/").asString();
        assertThat(html).containsPattern("<script type=\"module\" crossorigin src=\"/console/assets/[^\"]+\\.js\"");
        assertThat(html.replaceAll("<script[^>]*src=\"[^\"]+\"[^>]*></script>", ""))
                .doesNotContain("<script");
        String script = html.replaceAll("(?s).*src=\"(/console/assets/[^\"]+\\.js)\".*", "$1");
        Response asset = given().get(script);
        assertThat(asset.statusCode()).isEqualTo(200);
        assertThat(asset.header("Content-Security-Policy")).contains("script-src 'self'");
    }

    private static String firstScript() {
        String html = given().get("/console/").asString();
        return html.replaceAll("(?s).*src=\"(/console/assets/[^\"]+\\.js)\".*", "$1");
    }

    /** Answers as sent: no decompression by the client. */
    private static io.restassured.specification.RequestSpecification raw(String acceptEncoding) {
        return given().config(RestAssuredConfig.config()
                        .decoderConfig(DecoderConfig.decoderConfig().noContentDecoders()))
                .header("Accept-Encoding", acceptEncoding);
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in =
                ConsoleServingTests.class.getClassLoader().getResourceAsStream(ConsoleFiles.ROOT + name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        }
    }

    @Test
    void indexHtmlIsNeverCachedAndHashedAssetsAreImmutable() {
        Response page = given().get("/console/");
        assertThat(page.header("Cache-Control")).isEqualTo("no-cache");
        assertThat(given().get("/console/index.html").header("Cache-Control")).isEqualTo("no-cache");
        Response asset = given().get(firstScript());
        assertThat(asset.statusCode()).isEqualTo(200);
        assertThat(asset.header("Cache-Control")).isEqualTo("public, max-age=31536000, immutable");
        assertThat(asset.contentType()).startsWith("text/javascript");
    }

    @Test
    void thePrecompressedVariantTheBrowserAcceptsIsSent() throws IOException {
        String script = firstScript();
        String name = script.substring("/console/".length());
        byte[] identity = resource(name);

        Response brotli = raw("gzip, deflate, br").get(script);
        assertThat(brotli.header("Content-Encoding")).isEqualTo("br");
        assertThat(brotli.header("Vary")).contains("Accept-Encoding");
        assertThat(brotli.asByteArray()).isEqualTo(resource(name + ".br"));
        assertThat(brotli.asByteArray().length).isLessThan(identity.length / 2);

        Response gzip = raw("gzip").get(script);
        assertThat(gzip.header("Content-Encoding")).isEqualTo("gzip");
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip.asByteArray()))) {
            assertThat(in.readAllBytes()).isEqualTo(identity);
        }

        Response refused = raw("br;q=0, gzip;q=0").get(script);
        assertThat(refused.header("Content-Encoding")).isNull();
        assertThat(refused.asByteArray()).isEqualTo(identity);
        Response none = raw("identity").get(script);
        assertThat(none.header("Content-Encoding")).isNull();
        assertThat(none.asByteArray()).isEqualTo(identity);
    }

    @Test
    void theFaviconIsServedAndTheRootIconPointsToIt() {
        Response icon = given().get("/console/favicon.svg");
        assertThat(icon.statusCode()).isEqualTo(200);
        assertThat(icon.contentType()).startsWith("image/svg+xml");
        assertThat(given().get("/console/").asString()).contains("href=\"/console/favicon.svg\"");
        Response root = given().redirects().follow(false).get("/favicon.ico");
        assertThat(root.statusCode()).isEqualTo(302);
        assertThat(root.header("Location")).isEqualTo("/console/favicon.svg");
    }

    @Test
    void aMissingFileOrAPathOutsideTheConsoleIsNotFound() {
        assertThat(given().get("/console/assets/no-such-chunk-0000.js").statusCode())
                .isEqualTo(404);
        assertThat(given().urlEncodingEnabled(false)
                        .get("/console/%2e%2e/application.properties")
                        .statusCode())
                .isEqualTo(404);
        assertThat(given().urlEncodingEnabled(false)
                        .get("/console/..%2fapplication.properties")
                        .statusCode())
                .isIn(400, 404);
    }

    @Test
    void theBarePathRedirectsToThePage() {
        Response bare = given().redirects().follow(false).get("/console");
        assertThat(bare.statusCode()).isEqualTo(302);
        assertThat(bare.header("Location")).isEqualTo("/console/");
    }

    @Test
    void noOtherOriginIsAllowedToCallTheAdminApi() {
        Response preflight = given().header("Origin", "https://elsewhere.example")
                .header("Access-Control-Request-Method", "GET")
                .header("Access-Control-Request-Headers", "authorization")
                .options("/admin/v1/credentials");
        assertThat(preflight.header("Access-Control-Allow-Origin")).isNull();
        Response call = given().header("Origin", "https://elsewhere.example")
                .header("Authorization", "Bearer " + AdminApiFixtures.TOKEN)
                .get("/admin/v1/settings");
        assertThat(call.header("Access-Control-Allow-Origin")).isNull();
        assertThat(call.header("Access-Control-Allow-Credentials")).isNull();
    }
}
