package io.routegateway.state.usage;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

/** {@code GET /admin/v1/usage/export}: request logs and rollups as CSV and NDJSON, and what it refuses. */
@QuarkusTest
class UsageExportTests {

    static final Instant START = Instant.parse("2026-10-01T08:00:00Z");

    static final String RANGE = "&from=2026-10-01T00:00:00Z&to=2026-10-02T00:00:00Z";

    @Inject
    Pool pool;

    List<Traffic.Raw> traffic(String team, int count) {
        List<Traffic.Raw> rows = new ArrayList<>(Traffic.random(new Random(count), team, START, 2, count));
        Traffic.Raw first = rows.get(0);
        // a model name a spreadsheet would run as a formula, and one with a separator and a quote
        rows.set(
                0,
                new Traffic.Raw(
                        first.id(),
                        first.epochMs(),
                        first.key(),
                        team,
                        first.group(),
                        first.credential(),
                        "=HYPERLINK(\"http://evil\",\"x\")",
                        "+cmd",
                        first.status(),
                        first.reason(),
                        first.success(),
                        first.probe(),
                        first.latency(),
                        first.ttft(),
                        first.input(),
                        first.output(),
                        first.cost(),
                        first.cacheRead(),
                        first.cacheWrite5m(),
                        first.cacheWrite1h(),
                        first.reasoning()));
        Traffic.insert(pool, rows);
        return rows;
    }

    @Test
    void requestLogsExportAsCsvOldestFirstWithFormulaCellsMadeText() {
        String team = unique("team");
        List<Traffic.Raw> rows = traffic(team, 1_200);
        var response = admin().get("/admin/v1/usage/export?team_id=" + team + RANGE)
                .then()
                .statusCode(200)
                .extract();
        assertThat(response.contentType()).startsWith("text/csv");
        List<String> lines = Arrays.asList(response.asString().split("\n"));
        assertThat(lines.get(0)).startsWith("request_id,occurred_at,occurred_epoch_ms,");
        assertThat(lines).hasSize(rows.size() + 1);
        String formula = lines.stream()
                .filter(line -> line.startsWith(rows.get(0).id().toString()))
                .findFirst()
                .orElseThrow();
        assertThat(formula).contains(",\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\",'+cmd,");
        for (String line : lines.subList(1, lines.size())) {
            for (String cell : line.split(",")) {
                assertThat(cell).doesNotStartWith("=").doesNotStartWith("+").doesNotStartWith("@");
            }
        }
        long previous = Long.MIN_VALUE;
        for (String line : lines.subList(1, lines.size())) {
            long at = Long.parseLong(line.split(",")[2]);
            assertThat(at).isGreaterThanOrEqualTo(previous);
            previous = at;
        }
    }

    @Test
    void requestLogsAndRollupsExportAsNdjsonWithTheListsFilters() {
        String team = unique("team");
        List<Traffic.Raw> rows = traffic(team, 300);
        var response = admin().get("/admin/v1/usage/export?format=ndjson&success=false&team_id=" + team + RANGE)
                .then()
                .statusCode(200)
                .extract();
        assertThat(response.contentType()).startsWith("application/x-ndjson");
        List<String> lines = Arrays.asList(response.asString().split("\n"));
        assertThat(lines)
                .hasSize((int) rows.stream().filter(row -> !row.success()).count());
        for (String line : lines) {
            JsonObject object = new JsonObject(line);
            assertThat(object.getBoolean("success")).isFalse();
            assertThat(object.getString("team_id")).isEqualTo(team);
        }

        String rollups = admin().get("/admin/v1/usage/export?kind=rollups&format=ndjson&team_id=" + team + RANGE)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        long requests = 0;
        for (String line : rollups.split("\n")) {
            requests += new JsonObject(line).getLong("requests");
        }
        assertThat(requests).isEqualTo(rows.size());
        String csv = admin().get("/admin/v1/usage/export?kind=rollups&team_id=" + team + RANGE)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(csv).startsWith("minute_epoch_ms,access_key_id,team_id,");
    }

    @Test
    void hostileExportsAreRefusedBeforeAnythingIsRead() {
        String export = "/admin/v1/usage/export?kind=requests&";
        error(admin().get(export + "from=2026-10-01T00:00:00Z").then(), 400, "validation.query");
        error(admin().get(export + "to=2026-10-01T00:00:00Z").then(), 400, "validation.query");
        error(admin().get("/admin/v1/usage/export").then(), 400, "validation.query");
        error(
                admin().get(export + "from=2026-10-02T00:00:00Z&to=2026-10-01T00:00:00Z")
                        .then(),
                400,
                "validation.query");
        error(
                admin().get(export + "from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z")
                        .then(),
                400,
                "validation.query");
        error(admin().get(export + "from=yesterday&to=2026-10-01T00:00:00Z").then(), 400, "validation.query");
        error(admin().get(export + "format=xlsx" + RANGE).then(), 400, "validation.query");
        error(admin().get("/admin/v1/usage/export?kind=credentials" + RANGE).then(), 400, "validation.query");
        error(admin().get(export + "success=maybe" + RANGE).then(), 400, "validation.query");
        // a misspelt or unknown parameter is never ignored, and markup in its name is never echoed
        error(admin().get(export + "teamid=x" + RANGE).then(), 400, "validation.unknown_field")
                .body("error.message", containsString("teamid"));
        error(admin().get(export + "limit=10" + RANGE).then(), 400, "validation.unknown_field");
        error(admin().get(export + "%3Cscript%3E=1" + RANGE).then(), 400, "validation.unknown_field")
                .body("error.message", not(containsString("<script>")));
        // NUL and huge values are refused by the admin input filter
        error(
                admin().urlEncodingEnabled(false)
                        .get(export + "team_id=a%00b" + RANGE)
                        .then(),
                400,
                "validation.query");
        error(admin().get(export + "team_id=" + "x".repeat(300) + RANGE).then(), 400, "validation.query");
        admin().get(export + RANGE.substring(1)).then().statusCode(200);
        io.restassured.RestAssured.given()
                .get(export + RANGE.substring(1))
                .then()
                .statusCode(401);
    }
}
