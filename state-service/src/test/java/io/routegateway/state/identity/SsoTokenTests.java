package io.routegateway.state.identity;

import java.time.Instant;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.specification.RequestSpecification;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static io.routegateway.state.support.AdminApiFixtures.admin;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

/**
 * Single sign-on bearer tokens against a stand-in issuer ({@link TestIssuer}, a JWKS served on
 * loopback, tokens signed here): hostile tokens are 401, a valid token maps to its role (and team)
 * and EndpointGuard holds it to that role; the break-glass token still works beside it.
 */
@QuarkusTest
@TestProfile(TestIssuer.Profile.class)
class SsoTokenTests {

    private static final TestIssuer ISSUER = TestIssuer.get();

    private static RequestSpecification bearer(String token) {
        return given().header("Authorization", "Bearer " + token).contentType("application/json");
    }

    private static String valid(String subject, String... groups) {
        return ISSUER.sign(ISSUER.claims(subject, groups));
    }

    private static void refused(String token) {
        bearer(token).get("/admin/v1/me").then().statusCode(401).body("error.code", equalTo("unauthorized"));
    }

    @Test
    void anExpiredTokenIsRefused() {
        JwtClaims claims = ISSUER.claims("ada", "admin");
        long now = Instant.now().getEpochSecond();
        claims.setIssuedAt(NumericDate.fromSeconds(now - 3600));
        claims.setExpirationTime(NumericDate.fromSeconds(now - 1800));
        refused(ISSUER.sign(claims));
    }

    @Test
    void aTamperedSignatureIsRefused() {
        refused(ISSUER.signWithStranger(ISSUER.claims("ada", "admin")));
        // a valid token whose payload was swapped for another (viewer → admin): the signature no longer matches
        String viewer = valid("vera", "viewer");
        String admin = valid("vera", "admin");
        String[] v = viewer.split("\\.");
        String[] a = admin.split("\\.");
        refused(v[0] + "." + a[1] + "." + v[2]);
    }

    @Test
    void aWrongAudienceIsRefused() {
        JwtClaims claims = ISSUER.claims("ada", "admin");
        claims.setAudience("some-other-client");
        refused(ISSUER.sign(claims));
    }

    @Test
    void aWrongIssuerIsRefused() {
        JwtClaims claims = ISSUER.claims("ada", "admin");
        claims.setIssuer("http://127.0.0.1:1/realms/elsewhere");
        refused(ISSUER.sign(claims));
    }

    @Test
    void anUnsignedTokenIsRefused() {
        refused(TestIssuer.unsigned(ISSUER.claims("ada", "admin")));
        refused("not.a-jwt.at-all");
    }

    @Test
    void aVerifiedTokenWithoutARoleIsForbidden() {
        bearer(valid("nobody", "staff"))
                .get("/admin/v1/me")
                .then()
                .statusCode(403)
                .body("error.code", equalTo("forbidden"));
        // a team role without a team grants nothing
        bearer(valid("lost", "team_member")).get("/admin/v1/me").then().statusCode(403);
    }

    @Test
    void anAdminTokenActsAsAdminViaSso() {
        String token = valid("ada", "admin");
        bearer(token)
                .get("/admin/v1/me")
                .then()
                .statusCode(200)
                .body("subject", equalTo("ada"))
                .body("via", equalTo("sso"))
                .body("role", equalTo("admin"))
                .body("team_id", nullValue())
                .body("allowed", hasItem("PATCH /admin/v1/settings"));
        bearer(token).get("/admin/v1/settings").then().statusCode(200);
    }

    @Test
    void anOperatorTokenReachesOperatorsEndpointsOnly() {
        String token = valid("otto", "operator");
        bearer(token).get("/admin/v1/me").then().statusCode(200).body("role", equalTo("operator"));
        bearer(token).get("/admin/v1/credentials").then().statusCode(200);
        bearer(token).body("{}").patch("/admin/v1/settings").then().statusCode(403);
    }

    @Test
    void aViewerTokenReadsButNeverWrites() {
        String token = valid("vera", "viewer");
        bearer(token)
                .get("/admin/v1/me")
                .then()
                .statusCode(200)
                .body("role", equalTo("viewer"))
                .body("allowed", not(hasItem("POST /admin/v1/groups")));
        bearer(token).get("/admin/v1/groups").then().statusCode(200);
        bearer(token).body("{}").post("/admin/v1/groups").then().statusCode(403);
    }

    @Test
    void teamTokensCarryTheirTeamFromTheGroupConvention() {
        String member = valid("tim", "team_member", "team:team-sso");
        bearer(member)
                .get("/admin/v1/me")
                .then()
                .statusCode(200)
                .body("role", equalTo("team_member"))
                .body("team_id", equalTo("team-sso"));
        bearer(member).get("/admin/v1/credentials").then().statusCode(403);
        bearer(member).get("/admin/v1/access-keys").then().statusCode(200);
        String teamAdmin = valid("tara", "team_admin", "team:team-sso");
        bearer(teamAdmin).get("/admin/v1/me").then().statusCode(200).body("role", equalTo("team_admin"));
        bearer(teamAdmin).get("/admin/v1/api-tokens").then().statusCode(200);
        bearer(teamAdmin).get("/admin/v1/settings").then().statusCode(403);
    }

    @Test
    void theBreakGlassTokenStillWorksBesideSso() {
        admin().get("/admin/v1/me").then().statusCode(200).body("via", equalTo("break_glass"));
    }

    @Test
    void theConsoleLearnsTheIssuerAndItsPublicClient() {
        given().get("/sso/v1/console")
                .then()
                .statusCode(200)
                .body("enabled", equalTo(true))
                .body("issuer", equalTo(ISSUER.issuer()))
                .body("client_id", equalTo(TestIssuer.AUDIENCE));
    }
}
