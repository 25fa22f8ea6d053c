package io.routegateway.state.web;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createGroup;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A list the console polls answers 304 while it is unchanged: every admin GET carries a strong
 * ETag over its body, and If-None-Match with that tag gets no body.
 */
@QuarkusTest
class ConditionalGetTests {

    @Test
    void anUnchangedListIsA304AndAChangedOneA200WithANewTag() {
        // the groups list: the credentials list carries live countdowns, so it changes by itself
        createGroup(Map.of("id", unique("grp-etag"), "name", "etag one"));
        Response first = admin().get("/admin/v1/groups");
        assertThat(first.statusCode()).isEqualTo(200);
        String tag = first.header("ETag");
        assertThat(tag).as("a strong tag").startsWith("\"").doesNotStartWith("W/");
        assertThat(ConditionalGetFilter.etag(first.asByteArray()))
                .as("the tag is over the body sent")
                .isEqualTo(tag);

        Response unchanged = admin().header("If-None-Match", tag).get("/admin/v1/groups");
        assertThat(unchanged.statusCode()).isEqualTo(304);
        assertThat(unchanged.asByteArray()).isEmpty();
        assertThat(unchanged.header("ETag")).isEqualTo(tag);
        assertThat(admin().header("If-None-Match", "W/" + tag)
                        .get("/admin/v1/groups")
                        .statusCode())
                .isEqualTo(304);

        createGroup(Map.of("id", unique("grp-etag"), "name", "etag two"));
        Response changed = admin().header("If-None-Match", tag).get("/admin/v1/groups");
        assertThat(changed.statusCode()).isEqualTo(200);
        assertThat(changed.header("ETag")).isNotEqualTo(tag);
    }

    @Test
    void aStaleOrForeignTagGetsTheWholeBody() {
        Response response = admin().header("If-None-Match", "\"not-the-tag\"").get("/admin/v1/settings");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.asString()).isNotEmpty();
        assertThat(response.header("ETag")).isNotNull();
    }

    @Test
    void errorsAndWritesCarryNoTag() {
        Response missing = admin().get("/admin/v1/credentials/no-such-credential");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.header("ETag")).isNull();
        Response refused = io.restassured.RestAssured.given().get("/admin/v1/credentials");
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.header("ETag")).isNull();
        Response write = admin().body(Map.of()).patch("/admin/v1/settings");
        assertThat(write.header("ETag")).isNull();
    }
}
