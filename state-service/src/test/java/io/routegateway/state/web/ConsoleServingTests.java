package io.routegateway.state.web;

import io.quarkus.test.junit.QuarkusTest;
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
