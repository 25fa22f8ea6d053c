package io.routegateway.state.usage;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The request-log and usage query parameters without a database: one row per refused value (parameter,
 * value, message). Every refusal is {@code validation.query}.
 */
class UsageRulesTests {

    private static final String NUL = "\u0000";
    private static final String MEGABYTE = "x".repeat(1 << 20);

    static Stream<Arguments> refusedFilters() {
        return Stream.of(
                arguments("success", "yes", "success must be true or false"),
                arguments("success", "TRUE", "success must be true or false"),
                arguments("success", "1", "success must be true or false"),
                arguments("success", "true" + NUL, "success must be true or false"),
                arguments("probe", "no", "probe must be true or false"),
                arguments("probe", MEGABYTE, "probe must be true or false"),
                arguments("from", "yesterday", "from must be an ISO-8601 instant such as 2026-01-31T00:00:00Z"),
                arguments("from", "2026-03-01", "from must be an ISO-8601 instant such as 2026-01-31T00:00:00Z"),
                arguments("from", "1767225600000", "from must be an ISO-8601 instant such as 2026-01-31T00:00:00Z"),
                arguments(
                        "to",
                        "2026-03-01T00:00:00Z" + NUL,
                        "to must be an ISO-8601 instant such as 2026-01-31T00:00:00Z"),
                arguments("to", MEGABYTE, "to must be an ISO-8601 instant such as 2026-01-31T00:00:00Z"));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource
    void refusedFilters(String parameter, String value, String message) {
        Map<String, String> sent = new HashMap<>();
        sent.put(parameter, value);
        refused(() -> filter(sent), message);
    }

    @Test
    void fromMustBeBeforeTo() {
        refused(
                () -> filter(Map.of("from", "2026-03-02T00:00:00Z", "to", "2026-03-01T00:00:00Z")),
                "from must be before to");
        refused(
                () -> filter(Map.of("from", "2026-03-02T00:00:00Z", "to", "2026-03-02T00:00:00Z")),
                "from must be before to");
    }

    @Test
    void aWrongTypeIsRefusedBeforeTheRangeIsCompared() {
        refused(
                () -> filter(Map.of("success", "maybe", "from", "2026-03-02T00:00:00Z", "to", "2026-03-01T00:00:00Z")),
                "success must be true or false");
    }

    @Test
    void theFiltersMapStrippedAndBlankValuesAreAbsent() {
        RequestFilter filter = filter(Map.of(
                "access_key_id", " key-a ",
                "credential_id", "cred-a",
                "group_id", "grp-a",
                "model", " gpt-4o\t",
                "success", " false ",
                "reason_code", "no_available_credential",
                "probe", "true",
                "from", "2026-03-01T00:00:00Z",
                "to", " 2026-03-02T00:00:00.5Z ",
                "team_id", " team-a "));
        assertThat(filter)
                .isEqualTo(new RequestFilter(
                        "key-a",
                        "cred-a",
                        "grp-a",
                        "gpt-4o",
                        false,
                        "no_available_credential",
                        true,
                        Instant.parse("2026-03-01T00:00:00Z"),
                        Instant.parse("2026-03-02T00:00:00.500Z"),
                        "team-a"));

        RequestFilter none = filter(Map.of("access_key_id", " ", "model", "", "success", " ", "from", "  "));
        assertThat(none).isEqualTo(new RequestFilter(null, null, null, null, null, null, null, null, null, null));
        List<Object> args = new ArrayList<>();
        assertThat(none.where(args)).isEmpty();
        assertThat(args).isEmpty();
    }

    @Test
    void theFiltersBecomeOneConditionWithPlaceholders() {
        List<Object> args = new ArrayList<>();
        String where = filter(Map.of(
                        "credential_id", "cred-a", "model", "m", "probe", "false", "from", "2026-03-01T00:00:00Z"))
                .where(args);
        assertThat(where)
                .isEqualTo(" WHERE credential_id = $1 AND probe = $2"
                        + " AND (requested_model = $3 OR model_key = $3) AND occurred_epoch_ms >= $4");
        assertThat(args)
                .containsExactly(
                        "cred-a",
                        false,
                        "m",
                        Instant.parse("2026-03-01T00:00:00Z").toEpochMilli());
    }

    static Stream<Arguments> refusedGroupings() {
        return Stream.of(
                arguments("week"), arguments("DAY"), arguments("model" + NUL), arguments(MEGABYTE), arguments("1"));
    }

    @ParameterizedTest(name = "group_by = {0}")
    @MethodSource
    void refusedGroupings(String groupBy) {
        refused(() -> UsageRules.groupBy(groupBy), "group_by must be one of " + UsageRules.GROUPINGS.keySet());
    }

    @Test
    void groupByDefaultsToDayAndNamesItsExpression() {
        assertThat(UsageRules.groupBy(null).by()).isEqualTo("day");
        assertThat(UsageRules.groupBy("  ").by()).isEqualTo("day");
        assertThat(UsageRules.groupBy(" model ").by()).isEqualTo("model");
        assertThat(UsageRules.groupBy("model").expression()).isEqualTo("coalesce(model_key, requested_model)");
        assertThat(UsageRules.groupBy("access_key").expression()).isEqualTo("access_key_id");
        assertThat(UsageRules.groupBy("credential").expression()).isEqualTo("credential_id");
        assertThat(UsageRules.groupBy("group").expression()).isEqualTo("group_id");
        assertThat(UsageRules.groupBy("day").expression())
                .startsWith("to_char(")
                .contains("UTC");
    }

    static Stream<Arguments> refusedLimits() {
        return Stream.of(
                arguments("0"),
                arguments("501"),
                arguments("-1"),
                arguments("ten"),
                arguments("2.5"),
                arguments("99999999999"),
                arguments("5" + NUL),
                arguments(MEGABYTE));
    }

    @ParameterizedTest(name = "limit = {0}")
    @MethodSource
    void refusedLimits(String limit) {
        refused(() -> UsageRules.limit(limit), "limit must be an integer 1..500");
    }

    @Test
    void theLimitDefaultsToFiftyAndTakesOneToFiveHundred() {
        assertThat(UsageRules.limit(null)).isEqualTo(50);
        assertThat(UsageRules.limit(" ")).isEqualTo(50);
        assertThat(UsageRules.limit("1")).isEqualTo(1);
        assertThat(UsageRules.limit(" 500 ")).isEqualTo(500);
    }

    static Stream<Arguments> refusedCursors() {
        return Stream.of(
                arguments("abc"),
                arguments("123"),
                arguments("_" + UUID.randomUUID()),
                arguments("123_not-a-uuid"),
                arguments("x_" + UUID.randomUUID()),
                arguments("123_" + UUID.randomUUID() + NUL),
                arguments(MEGABYTE + "_" + UUID.randomUUID()));
    }

    @ParameterizedTest(name = "cursor = {0}")
    @MethodSource
    void refusedCursors(String cursor) {
        refused(() -> UsageRules.cursor(cursor), "cursor must be the next_cursor of a previous page");
    }

    @Test
    void aCursorReadsBackWhatAPageWrote() {
        UsageRules.Cursor cursor = new UsageRules.Cursor(1767225600123L, UUID.randomUUID());
        assertThat(cursor.toString()).isEqualTo("1767225600123_" + cursor.requestId());
        assertThat(UsageRules.cursor(cursor.toString())).isEqualTo(cursor);
        assertThat(UsageRules.cursor(null)).isNull();
        assertThat(UsageRules.cursor(" ")).isNull();
    }

    private static RequestFilter filter(Map<String, String> sent) {
        return UsageRules.filter(
                sent.get("access_key_id"),
                sent.get("credential_id"),
                sent.get("group_id"),
                sent.get("model"),
                sent.get("success"),
                sent.get("reason_code"),
                sent.get("probe"),
                sent.get("from"),
                sent.get("to"),
                sent.get("team_id"));
    }

    private static void refused(Supplier<?> input, String message) {
        assertThatThrownBy(input::get)
                .isInstanceOfSatisfying(AdminException.class, refusal -> {
                    assertThat(refusal.code()).isEqualTo(AdminCodes.QUERY);
                    assertThat(refusal.status()).isEqualTo(400);
                })
                .hasMessage(message);
    }
}
