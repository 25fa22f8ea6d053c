package io.routegateway.core.policy;

import io.routegateway.core.model.WeightMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WeightsTests {

    @Test
    void manualZeroIsRejectedWithTheWeightCode() {
        assertThatThrownBy(() -> Weights.requireWritable(WeightMode.MANUAL, 0))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("disable")
                .extracting(e -> ((ValidationException) e).code())
                .isEqualTo(ValidationCodes.WEIGHT);
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 101, 1000})
    void outOfRangeIsRejected(int weight) {
        assertThatThrownBy(() -> Weights.requireWritable(WeightMode.MANUAL, weight))
                .extracting(e -> ((ValidationException) e).code())
                .isEqualTo(ValidationCodes.WEIGHT);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 50, 100})
    void oneToHundredIsAccepted(int weight) {
        assertThatCode(() -> Weights.requireWritable(WeightMode.MANUAL, weight)).doesNotThrowAnyException();
    }

    @Test
    void autoModeStillRefusesAZeroSentWithIt() {
        assertThatThrownBy(() -> Weights.requireWritable(WeightMode.AUTO, 0))
                .extracting(e -> ((ValidationException) e).code())
                .isEqualTo(ValidationCodes.WEIGHT);
    }

    @ParameterizedTest
    @EnumSource(WeightMode.class)
    void noWeightSentIsFine(WeightMode mode) {
        assertThatCode(() -> Weights.requireWritable(mode, null)).doesNotThrowAnyException();
    }

    @Test
    void anUpdateSendingOnlyTheModeKeepsTheWeight() {
        assertThat(Weights.afterUpdate(WeightMode.AUTO, 40, WeightMode.MANUAL, null))
                .isEqualTo(new Weights.Setting(WeightMode.MANUAL, 40));
        assertThat(Weights.afterUpdate(WeightMode.MANUAL, 40, null, 70))
                .isEqualTo(new Weights.Setting(WeightMode.MANUAL, 70));
        assertThat(Weights.afterUpdate(WeightMode.MANUAL, 40, null, null))
                .isEqualTo(new Weights.Setting(WeightMode.MANUAL, 40));
    }

    @Test
    void switchingALegacyZeroToManualIsRefusedUnlessAWeightIsSent() {
        assertThatThrownBy(() -> Weights.afterUpdate(WeightMode.AUTO, 0, WeightMode.MANUAL, null))
                .extracting(e -> ((ValidationException) e).code())
                .isEqualTo(ValidationCodes.WEIGHT);
        assertThat(Weights.afterUpdate(WeightMode.AUTO, 0, WeightMode.MANUAL, 5))
                .isEqualTo(new Weights.Setting(WeightMode.MANUAL, 5));
        // a legacy 0 that stays in auto mode is left alone (it routes as weight zero until fixed)
        assertThat(Weights.afterUpdate(WeightMode.AUTO, 0, null, null))
                .isEqualTo(new Weights.Setting(WeightMode.AUTO, 0));
    }

    @Test
    void anUpdateSendingZeroIsRefused() {
        assertThatThrownBy(() -> Weights.afterUpdate(WeightMode.MANUAL, 40, null, 0))
                .extracting(e -> ((ValidationException) e).code())
                .isEqualTo(ValidationCodes.WEIGHT);
    }
}
