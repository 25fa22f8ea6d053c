package io.routegateway.core.load;

import io.routegateway.core.forward.Refusal;
import io.routegateway.core.load.LoadShedding.Caps;
import io.routegateway.core.load.LoadShedding.Shed;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadSheddingTests {

    private static final Caps CAPS = new Caps(3, 1_000);

    @Test
    void requestsAreTakenUpToTheConcurrencyCapAndShedPastIt() {
        assertThat(LoadShedding.decide(CAPS, 0, 0, 10)).isNull();
        assertThat(LoadShedding.decide(CAPS, 2, 0, 10)).isNull();
        assertThat(LoadShedding.decide(CAPS, 3, 0, 10)).isEqualTo(Shed.CONCURRENT_REQUESTS);
        assertThat(LoadShedding.decide(CAPS, 4, 0, 0)).isEqualTo(Shed.CONCURRENT_REQUESTS);
    }

    @Test
    void bodiesAreTakenUpToTheByteBudgetAndShedPastIt() {
        assertThat(LoadShedding.decide(CAPS, 1, 600, 400)).isNull();
        assertThat(LoadShedding.decide(CAPS, 1, 600, 401)).isEqualTo(Shed.IN_FLIGHT_BODY_BYTES);
        assertThat(LoadShedding.decide(CAPS, 1, 1_000, 0))
                .as("no declared body adds nothing")
                .isNull();
    }

    @Test
    void aBodyLargerThanTheWholeBudgetIsTakenAloneButNotBesideOthers() {
        assertThat(LoadShedding.decide(CAPS, 0, 0, 5_000)).isNull();
        assertThat(LoadShedding.decide(CAPS, 1, 1, 5_000)).isEqualTo(Shed.IN_FLIGHT_BODY_BYTES);
    }

    @Test
    void aShedRequestGets503GatewayOverloadedNamingTheCapOnly() {
        for (Shed shed : Shed.values()) {
            Refusal refusal = LoadShedding.refusal(shed);
            assertThat(refusal.status()).isEqualTo(503);
            assertThat(refusal.code()).isEqualTo(LoadShedding.GATEWAY_OVERLOADED);
            assertThat(refusal.message()).contains("retry shortly");
        }
        assertThat(Shed.CONCURRENT_REQUESTS.label()).isEqualTo("concurrent_requests");
        assertThat(Shed.IN_FLIGHT_BODY_BYTES.label()).isEqualTo("in_flight_body_bytes");
    }

    @Test
    void capsMustBePositive() {
        assertThatThrownBy(() -> new Caps(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Caps(1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
