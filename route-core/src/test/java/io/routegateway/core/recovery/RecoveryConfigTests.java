package io.routegateway.core.recovery;

import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.policy.ValidationCodes;
import io.routegateway.core.policy.ValidationException;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecoveryConfigTests {

    static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");

    static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static RecoveryConfig parse(String text) {
        return RecoveryConfig.parse(json(text), SHANGHAI);
    }

    static void rejected(String text, String code) {
        assertThatThrownBy(() -> parse(text))
                .isInstanceOf(ValidationException.class)
                .extracting(e -> ((ValidationException) e).code())
                .isEqualTo(code);
    }

    @Nested
    class Scheduled {

        @Test
        void singleDigitHourIsZeroPadded() {
            assertThat(parse("{\"mode\":\"scheduled\",\"times\":[\"3:00\"]}").timeStrings())
                    .containsExactly("03:00");
        }

        @Test
        void threeOClockWithAndWithoutPaddingIsOneTime() {
            assertThat(parse("{\"mode\":\"scheduled\",\"times\":[\"3:00\",\"03:00\"]}")
                            .times())
                    .containsExactly(LocalTime.of(3, 0));
        }

        @Test
        void timesAreDeduplicatedAndSorted() {
            assertThat(parse("{\"mode\":\"scheduled\",\"times\":[\"15:30\",\"03:00\",\"0:05\",\"15:30\"]}")
                            .timeStrings())
                    .containsExactly("00:05", "03:00", "15:30");
        }

        @Test
        void surroundingSpacesAreIgnored() {
            assertThat(parse("{\"mode\":\"scheduled\",\"times\":[\" 7:05 \"]}").timeStrings())
                    .containsExactly("07:05");
        }

        @Test
        void boundaryTimesAreValid() {
            assertThat(parse("{\"mode\":\"scheduled\",\"times\":[\"00:00\",\"23:59\"]}")
                            .timeStrings())
                    .containsExactly("00:00", "23:59");
        }

        @ParameterizedTest(name = "invalid time \"{0}\"")
        @ValueSource(
                strings = {"24:00", "7:5", "ab", "03:60", "", "003:00", "3:00pm", "-1:00", "12:00:00", "3：00", "12"})
        void invalidFormatIsRecoveryTimes(String time) {
            rejected("{\"mode\":\"scheduled\",\"times\":[\"03:00\",\"" + time + "\"]}", ValidationCodes.RECOVERY_TIMES);
        }

        @Test
        void nonTextTimeIsRecoveryTimes() {
            rejected("{\"mode\":\"scheduled\",\"times\":[300]}", ValidationCodes.RECOVERY_TIMES);
        }

        @Test
        void timesThatAreNotAListAreRecoveryTimes() {
            rejected("{\"mode\":\"scheduled\",\"times\":\"03:00\"}", ValidationCodes.RECOVERY_TIMES);
        }

        @Test
        void missingTimesAreRequired() {
            rejected("{\"mode\":\"scheduled\"}", ValidationCodes.RECOVERY_TIMES_REQUIRED);
        }

        @Test
        void emptyTimesAreRequired() {
            rejected("{\"mode\":\"scheduled\",\"times\":[]}", ValidationCodes.RECOVERY_TIMES_REQUIRED);
        }

        @Test
        void nullTimesAreRequired() {
            rejected("{\"mode\":\"scheduled\",\"times\":null}", ValidationCodes.RECOVERY_TIMES_REQUIRED);
        }

        @Test
        void timeZoneDefaultsToTheParameter() {
            assertThat(parse("{\"mode\":\"scheduled\",\"times\":[\"03:00\"]}").timeZone())
                    .isEqualTo(SHANGHAI);
        }

        @Test
        void explicitTimeZoneIsKept() {
            assertThat(parse("{\"mode\":\"scheduled\",\"times\":[\"03:00\"],\"time_zone\":\"Europe/Berlin\"}")
                            .timeZone())
                    .isEqualTo(ZoneId.of("Europe/Berlin"));
        }

        @Test
        void unknownTimeZoneIsRejected() {
            rejected(
                    "{\"mode\":\"scheduled\",\"times\":[\"03:00\"],\"time_zone\":\"Mars/Olympus\"}",
                    RecoveryConfig.TIME_ZONE_CODE);
        }

        @Test
        void timesWithSecondsAreRejectedInCode() {
            assertThatThrownBy(() -> RecoveryConfig.scheduled(List.of(LocalTime.of(3, 0, 5)), SHANGHAI))
                    .isInstanceOf(ValidationException.class)
                    .extracting(e -> ((ValidationException) e).code())
                    .isEqualTo(ValidationCodes.RECOVERY_TIMES);
        }

        @Test
        void storedShapeIsModeTimesAndZone() {
            assertThat(parse("{\"mode\":\"scheduled\",\"times\":[\"3:00\"],\"interval_minutes\":5}")
                            .toJson()
                            .toString())
                    .isEqualTo("{\"mode\":\"scheduled\",\"times\":[\"03:00\"],\"time_zone\":\"Asia/Shanghai\"}");
        }
    }

    @Nested
    class Healthcheck {

        @Test
        void intervalDefaultsToThirtyMinutes() {
            assertThat(parse("{\"mode\":\"healthcheck\"}").intervalMinutes()).isEqualTo(30);
        }

        @ParameterizedTest(name = "interval {0} accepted")
        @ValueSource(ints = {1, 15, 1440})
        void intervalWithinOneToFourteenForty(int minutes) {
            assertThat(parse("{\"mode\":\"healthcheck\",\"interval_minutes\":" + minutes + "}")
                            .intervalMinutes())
                    .isEqualTo(minutes);
        }

        @ParameterizedTest(name = "interval {0} rejected")
        @ValueSource(strings = {"0", "1441", "-5", "\"30\"", "30.5", "99999999999", "true"})
        void intervalOutOfRangeIsProbeInterval(String value) {
            rejected(
                    "{\"mode\":\"healthcheck\",\"interval_minutes\":" + value + "}",
                    ValidationCodes.RECOVERY_PROBE_INTERVAL);
        }

        @Test
        void storedShapeIsModeAndInterval() {
            assertThat(parse("{\"mode\":\"healthcheck\",\"times\":[\"03:00\"]}")
                            .toJson()
                            .toString())
                    .isEqualTo("{\"mode\":\"healthcheck\",\"interval_minutes\":30}");
        }
    }

    @Nested
    class Mode {

        @Test
        void offParsesToOff() {
            assertThat(parse("{\"mode\":\"off\",\"times\":[\"bad\"]}")).isEqualTo(RecoveryConfig.OFF);
        }

        @Test
        void nullInputIsOff() {
            assertThat(RecoveryConfig.parse(null, SHANGHAI)).isEqualTo(RecoveryConfig.OFF);
            assertThat(parse("null")).isEqualTo(RecoveryConfig.OFF);
        }

        @Test
        void modeIsCaseInsensitive() {
            assertThat(parse("{\"mode\":\" HealthCheck \"}").mode()).isEqualTo(RecoveryMode.HEALTHCHECK);
        }

        @Test
        void unknownModeIsRejected() {
            rejected("{\"mode\":\"weekly\"}", RecoveryConfig.MODE_CODE);
        }

        @Test
        void missingModeIsRejected() {
            rejected("{\"times\":[\"03:00\"]}", RecoveryConfig.MODE_CODE);
        }

        @Test
        void nonObjectInputIsRejected() {
            rejected("\"scheduled\"", RecoveryConfig.MODE_CODE);
        }
    }

    @Nested
    class Apply {

        @Test
        void otherKeysArePreservedInOrder() {
            String out = RecoveryConfig.applyRecovery(
                    "{\"model_mappings\":[{\"from\":\"a\",\"to\":\"b\"}],\"failure_policy\":{\"retry_count\":3}}",
                    json("{\"mode\":\"healthcheck\",\"interval_minutes\":15}"),
                    SHANGHAI);
            assertThat(out)
                    .isEqualTo(
                            "{\"model_mappings\":[{\"from\":\"a\",\"to\":\"b\"}],\"failure_policy\":{\"retry_count\":3},"
                                    + "\"recovery\":{\"mode\":\"healthcheck\",\"interval_minutes\":15}}");
        }

        @Test
        void existingRecoveryIsReplaced() {
            String out = RecoveryConfig.applyRecovery(
                    "{\"recovery\":{\"mode\":\"healthcheck\",\"interval_minutes\":15},\"x\":1}",
                    json("{\"mode\":\"scheduled\",\"times\":[\"3:00\"]}"),
                    SHANGHAI);
            assertThat(out)
                    .isEqualTo(
                            "{\"recovery\":{\"mode\":\"scheduled\",\"times\":[\"03:00\"],\"time_zone\":\"Asia/Shanghai\"},\"x\":1}");
        }

        @Test
        void offRemovesTheRecoveryKeyEntirely() {
            String out = RecoveryConfig.applyRecovery(
                    "{\"recovery\":{\"mode\":\"healthcheck\"},\"x\":1}", json("{\"mode\":\"off\"}"), SHANGHAI);
            assertThat(out).isEqualTo("{\"x\":1}");
        }

        @ParameterizedTest(name = "stored config {0} is refused")
        @ValueSource(strings = {"not json", "[1,2]", "\"text\"", "42", "{\"a\":1} trailing", "{\"a\":", "null"})
        void invalidStoredConfigIsRefused(String stored) {
            assertThatThrownBy(() -> RecoveryConfig.applyRecovery(stored, json("{\"mode\":\"off\"}"), SHANGHAI))
                    .isInstanceOf(ValidationException.class)
                    .extracting(e -> ((ValidationException) e).code())
                    .isEqualTo(ValidationCodes.RECOVERY_CONFIG_JSON);
        }

        @Test
        void missingStoredConfigStartsEmpty() {
            assertThat(RecoveryConfig.applyRecovery(null, json("{\"mode\":\"healthcheck\"}"), SHANGHAI))
                    .isEqualTo("{\"recovery\":{\"mode\":\"healthcheck\",\"interval_minutes\":30}}");
            assertThat(RecoveryConfig.applyRecovery("  ", json("{\"mode\":\"off\"}"), SHANGHAI))
                    .isEqualTo("{}");
        }

        @Test
        void invalidRecoveryInputPropagatesItsCode() {
            assertThatThrownBy(() -> RecoveryConfig.applyRecovery(
                            "{\"x\":1}", json("{\"mode\":\"scheduled\",\"times\":[]}"), SHANGHAI))
                    .extracting(e -> ((ValidationException) e).code())
                    .isEqualTo(ValidationCodes.RECOVERY_TIMES_REQUIRED);
        }

        @Test
        void writtenRuleReadsBackEqual() {
            String out = RecoveryConfig.applyRecovery(
                    "{}", json("{\"mode\":\"scheduled\",\"times\":[\"23:00\",\"3:00\"]}"), SHANGHAI);
            assertThat(RecoveryConfig.read(json(out), ZoneId.of("UTC")))
                    .isEqualTo(RecoveryConfig.scheduled(List.of(LocalTime.of(3, 0), LocalTime.of(23, 0)), SHANGHAI));
        }
    }

    @Nested
    class ForgivingRead {

        @ParameterizedTest(name = "stored {0} reads as off")
        @ValueSource(
                strings = {
                    "{}",
                    "{\"recovery\":\"garbage\"}",
                    "{\"recovery\":{\"mode\":\"weird\"}}",
                    "{\"recovery\":{\"mode\":\"scheduled\",\"times\":[\"25:00\"]}}",
                    "{\"recovery\":{\"mode\":\"scheduled\"}}",
                    "{\"recovery\":{\"mode\":\"healthcheck\",\"interval_minutes\":0}}",
                    "{\"recovery\":{\"mode\":\"scheduled\",\"times\":[\"03:00\"],\"time_zone\":\"Nowhere/City\"}}",
                    "[1]",
                    "\"x\""
                })
        void anythingUnparsableIsOff(String stored) {
            assertThat(RecoveryConfig.read(json(stored))).isEqualTo(RecoveryConfig.OFF);
        }

        @Test
        void nullConfigIsOff() {
            assertThat(RecoveryConfig.read(null)).isEqualTo(RecoveryConfig.OFF);
        }

        @Test
        void handEditedTimesAreNormalizedOnRead() {
            RecoveryConfig config = RecoveryConfig.read(
                    json("{\"recovery\":{\"mode\":\"scheduled\",\"times\":[\"9:30\",\"3:00\"]}}"), SHANGHAI);
            assertThat(config.timeStrings()).containsExactly("03:00", "09:30");
            assertThat(config.timeZone()).isEqualTo(SHANGHAI);
        }

        @Test
        void storedHealthcheckIsRead() {
            assertThat(RecoveryConfig.read(json("{\"recovery\":{\"mode\":\"healthcheck\",\"interval_minutes\":20}}")))
                    .isEqualTo(RecoveryConfig.healthcheck(20));
        }
    }
}
