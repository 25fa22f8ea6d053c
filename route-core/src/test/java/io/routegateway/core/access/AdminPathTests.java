package io.routegateway.core.access;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Every spelling a router could read as {@code /admin} asks for the token; other paths do not. */
class AdminPathTests {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/admin",
                "/admin/",
                "/admin/v1/teams",
                "//admin/v1/teams",
                "/admin;x=1/v1/teams",
                "/admin%3B/v1/teams",
                "/admin%3b/v1/teams",
                "/%61dmin/v1/teams",
                "/%2561dmin/v1/teams",
                "/ADMIN/v1/teams",
                "/Admin%20/v1/teams",
                "\\admin/v1/teams",
                "/%2Fadmin/v1/teams",
                "/admin%00/v1/teams"
            })
    void everySpellingOfTheAdminPrefixIsAdmin(String path) {
        assertThat(AdminPath.isAdmin(path)).as(path).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "", "/console/", "/q/health", "/administrator", "/q/openapi", "/adminx/v1", "/%zz"})
    void otherPathsAreNot(String path) {
        assertThat(AdminPath.isAdmin(path)).as(path).isFalse();
    }
}
