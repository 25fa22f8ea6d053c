package io.routegateway.testsupport;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import io.routegateway.testsupport.InfraSelection.Setting;
import io.routegateway.testsupport.InfraSelection.Source;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The choice between containers and local servers, for every setting with and without Docker. */
class InfraSelectionTests {

    @ParameterizedTest(name = "{0}, docker {1} -> {2}")
    @CsvSource({
        "AUTO, true, CONTAINER",
        "AUTO, false, LOCAL",
        "TESTCONTAINERS, true, CONTAINER",
        "LOCAL, true, LOCAL",
        "LOCAL, false, LOCAL",
    })
    void postgresFollowsTheSettingAndDocker(Setting setting, boolean docker, Source expected) {
        assertThat(InfraSelection.choose(setting, () -> docker)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}, given {1}, docker {2} -> {3}")
    @CsvSource({
        "AUTO, , true, CONTAINER",
        "AUTO, , false, LOCAL",
        "AUTO, 127.0.0.1:19092, true, GIVEN",
        "AUTO, 127.0.0.1:19092, false, GIVEN",
        "LOCAL, , true, LOCAL",
        "LOCAL, 127.0.0.1:19092, true, GIVEN",
        "TESTCONTAINERS, , true, CONTAINER",
        "TESTCONTAINERS, 127.0.0.1:19092, true, CONTAINER",
    })
    void kafkaPrefersAGivenBrokerUnlessContainersAreRequired(
            Setting setting, String given, boolean docker, Source expected) {
        assertThat(InfraSelection.chooseKafka(setting, given, () -> docker)).isEqualTo(expected);
    }

    @Test
    void testcontainersWithoutDockerIsRefusedNotAwaited() {
        Setting setting = Setting.TESTCONTAINERS;

        assertThatThrownBy(() -> InfraSelection.choose(setting, () -> false))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("route.test.infra=testcontainers")
                .hasMessageContaining("no Docker engine answered");
        assertThatThrownBy(() -> InfraSelection.chooseKafka(setting, "127.0.0.1:1", () -> false))
                .isInstanceOf(IllegalStateException.class);
    }

    @ParameterizedTest
    @CsvSource({"LOCAL, ", "LOCAL, 127.0.0.1:19092", "AUTO, 127.0.0.1:19092"})
    void dockerIsNotAskedWhenTheAnswerCannotMatter(Setting setting, String given) {
        AtomicInteger asked = new AtomicInteger();
        BooleanSupplier docker = () -> {
            asked.incrementAndGet();
            return true;
        };

        InfraSelection.choose(Setting.LOCAL, docker);
        InfraSelection.chooseKafka(setting, given, docker);

        assertThat(asked).hasValue(given == null && setting == Setting.AUTO ? 1 : 0);
    }

    @ParameterizedTest
    @CsvSource({"auto, AUTO", "AUTO, AUTO", "' testcontainers ', TESTCONTAINERS", "Local, LOCAL"})
    void parsesTheThreeValuesInAnyCase(String raw, Setting expected) {
        assertThat(Setting.parse(raw)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  "})
    void blankMeansAuto(String raw) {
        assertThat(Setting.parse(raw)).isEqualTo(Setting.AUTO);
        assertThat(Setting.parse(null)).isEqualTo(Setting.AUTO);
    }

    @ParameterizedTest
    @ValueSource(strings = {"docker", "true", "local\u0000", "auto,local"})
    void refusesAnyOtherValueNamingTheThree(String raw) {
        assertThatThrownBy(() -> Setting.parse(raw))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be auto, testcontainers or local")
                .hasMessageNotContaining("\u0000");
    }

    @Test
    void refusesAHugeValueWithAShortMessage() {
        String huge = "x".repeat(100_000);

        assertThatThrownBy(() -> Setting.parse(huge))
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(200));
    }
}
