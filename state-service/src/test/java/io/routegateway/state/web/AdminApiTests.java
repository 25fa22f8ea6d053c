package io.routegateway.state.web;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.routegateway.state.support.AdminApiFixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.restassured.RestAssured.given;
import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.notNullValue;

/** Authentication, the error shape, and the OpenAPI document. */
@QuarkusTest
class AdminApiTests {

    @ParameterizedTest
    @ValueSource(strings = {"/admin/v1/credentials", "/admin/v1/settings", "/admin/v1/no-such-thing"})
    void withoutATokenEveryAdminPathIs401WithACode(String path) {
        error(given().get(path).then(), 401, "unauthorized").header("WWW-Authenticate", "Bearer");
    }

    /** Spellings a router reads as /admin (matrix parameters, escapes, case) never skip the token check. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "/admin%3B/v1/teams",
                "/admin;x=1/v1/teams",
                "/%61dmin/v1/settings",
                "//admin/v1/credentials",
                "/admin/v1;x=1/teams"
            })
    void noSpellingOfTheAdminPrefixSkipsTheToken(String path) {
        error(given().urlEncodingEnabled(false).get(path).then(), 401, "unauthorized");
    }

    @Test
    void aWrongTokenIs401() {
        error(
                given().header("Authorization", "Bearer not-the-admin-token")
                        .get("/admin/v1/groups")
                        .then(),
                401,
                "unauthorized");
    }

    @Test
    void anotherSchemeIs401() {
        error(
                given().header("Authorization", "Basic " + AdminApiFixtures.TOKEN)
                        .get("/admin/v1/groups")
                        .then(),
                401,
                "unauthorized");
    }

    @Test
    void aWriteWithoutATokenChangesNothing() {
        String id = AdminApiFixtures.unique("grp");
        error(
                given().contentType(ContentType.JSON)
                        .body(Map.of("id", id, "name", "x"))
                        .post("/admin/v1/groups")
                        .then(),
                401,
                "unauthorized");
        error(admin().get("/admin/v1/groups/" + id).then(), 404, "not_found");
    }

    @Test
    void theRightTokenPasses() {
        admin().get("/admin/v1/groups").then().statusCode(200);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"name\": ", "not json", "[1, 2]", "\"a string\""})
    void malformedJsonIs400(String body) {
        error(admin().body(body).post("/admin/v1/groups").then(), 400, "validation.malformed_json");
    }

    @Test
    void anEmptyBodyIs400() {
        error(admin().post("/admin/v1/access-keys").then(), 400, "validation.malformed_json");
    }

    @Test
    void aFieldOfTheWrongTypeNamesTheField() {
        error(
                        admin().body("{\"name\": \"g\", \"enabled\": {\"x\": 1}}")
                                .post("/admin/v1/groups")
                                .then(),
                        400,
                        "validation.field_type")
                .body("error.message", org.hamcrest.Matchers.containsString("enabled"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/admin/v1/credentials/nope",
                "/admin/v1/groups/nope",
                "/admin/v1/access-keys/nope",
                "/admin/v1/credentials/nope/models",
                "/admin/v1/credentials/nope/timeline"
            })
    void unknownIdsAre404(String path) {
        error(admin().get(path).then(), 404, "not_found");
    }

    @Test
    void unknownIdsAre404ForWritesAndActionsToo() {
        error(
                admin().body("{\"name\":\"x\"}")
                        .patch("/admin/v1/credentials/nope")
                        .then(),
                404,
                "not_found");
        error(admin().post("/admin/v1/credentials/nope/pause").then(), 404, "not_found");
        error(
                admin().post("/admin/v1/credentials/nope/models/upstream-sol/pause")
                        .then(),
                404,
                "not_found");
        error(admin().post("/admin/v1/credentials/nope/models/clear-all").then(), 404, "not_found");
        error(admin().delete("/admin/v1/access-keys/nope").then(), 404, "not_found");
        error(admin().delete("/admin/v1/groups/nope").then(), 404, "not_found");
    }

    @Test
    void badQueryParametersAre400() {
        error(admin().get("/admin/v1/requests?limit=0").then(), 400, "validation.query");
        error(admin().get("/admin/v1/requests?success=maybe").then(), 400, "validation.query");
        error(admin().get("/admin/v1/requests?from=yesterday").then(), 400, "validation.query");
        error(admin().get("/admin/v1/usage?group_by=colour").then(), 400, "validation.query");
        error(admin().get("/admin/v1/credentials?archived=perhaps").then(), 400, "validation.query");
    }

    @Test
    void theOpenApiDocumentDescribesTheAdminApiAndItsBearerScheme() {
        given().accept(ContentType.JSON)
                .get("/q/openapi")
                .then()
                .statusCode(200)
                .body("paths", hasKey("/admin/v1/credentials/{id}/models/{modelKey}/pause"))
                .body("info.title", equalTo("route gateway admin API"))
                .body("paths", hasKey("/admin/v1/route-check"))
                .body("paths", hasKey("/admin/v1/usage"))
                .body("components.securitySchemes.'admin-token'.scheme", equalTo("bearer"))
                .body("components.schemas.CredentialInput", notNullValue());
    }

    /** Swagger UI shares the console's origin: it is never framed and may fetch only from here. */
    @Test
    void swaggerUiIsServedUnderAPolicyOfItsOwn() {
        given().get("/q/swagger-ui/")
                .then()
                .statusCode(200)
                .header("Content-Security-Policy", org.hamcrest.Matchers.containsString("connect-src 'self'"))
                .header("Content-Security-Policy", org.hamcrest.Matchers.containsString("frame-ancestors 'none'"))
                .header("X-Content-Type-Options", "nosniff");
    }

    /** Admin JSON, errors included, is never sniffed into something a browser would run. */
    @Test
    void adminAnswersCarryNosniff() {
        admin().get("/admin/v1/settings").then().statusCode(200).header("X-Content-Type-Options", "nosniff");
        given().get("/admin/v1/settings").then().statusCode(401).header("X-Content-Type-Options", "nosniff");
    }
}
