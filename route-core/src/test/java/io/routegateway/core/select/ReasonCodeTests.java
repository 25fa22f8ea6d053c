package io.routegateway.core.select;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.routegateway.core.json.Json;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReasonCodeTests {

    /** The scheduling page's reason-code table, in its order. */
    private static final List<String> SEED_B = List.of(
            "access_key_disabled",
            "access_key_expired",
            "protocol_filtered",
            "model_filtered",
            "model_required_by_filter",
            "operation_unsupported",
            "native_route_required",
            "no_route_target",
            "group_disabled",
            "group_filtered",
            "no_available_group",
            "no_credentials",
            "group_weight_zero",
            "credential_disabled",
            "credential_auth_unavailable",
            "credential_blacklisted",
            "credential_cooldown",
            "credential_weight_zero",
            "credential_not_allowed",
            "no_available_credential");

    @Test
    void everySchedulingPageCodeExists() {
        for (String code : SEED_B) {
            assertThat(ReasonCode.fromWire(code).wire()).isEqualTo(code);
        }
    }

    @Test
    void bothModelCodesAndTheStepTwoCodeExistAndStayDistinct() {
        assertThat(ReasonCode.MODEL_UNMATCHED.wire()).isEqualTo("route_pool.model_unmatched");
        assertThat(ReasonCode.MODEL_UNAVAILABLE.wire()).isEqualTo("route_pool.model_unavailable");
        assertThat(ReasonCode.NO_ENABLED_CREDENTIALS.wire()).isEqualTo("route_pool.no_enabled_credentials");
        assertThat(ReasonCode.MODEL_UNMATCHED).isNotEqualTo(ReasonCode.MODEL_UNAVAILABLE);
    }

    @Test
    void stepTwoMessageIsTheSpecsVerbatim() {
        assertThat(ReasonCode.NO_ENABLED_CREDENTIALS.meaning()).isEqualTo("No enabled route credentials in pool");
    }

    @Test
    void codesUseUniqueWireValues() {
        Set<String> seen = new HashSet<>();
        for (ReasonCode code : ReasonCode.values()) {
            assertThat(seen.add(code.wire())).as(code.wire()).isTrue();
        }
        assertThat(ReasonCode.values()).hasSize(SEED_B.size() + 5);
    }

    @Test
    void keyRefusalsAre401Or403AndEverythingElseIs502() {
        Set<ReasonCode> keyCodes = Set.of(
                ReasonCode.INVALID_ACCESS_KEY,
                ReasonCode.ACCESS_KEY_DISABLED,
                ReasonCode.ACCESS_KEY_EXPIRED,
                ReasonCode.PROTOCOL_FILTERED,
                ReasonCode.MODEL_FILTERED,
                ReasonCode.MODEL_REQUIRED_BY_FILTER);
        for (ReasonCode code : ReasonCode.values()) {
            if (keyCodes.contains(code)) {
                assertThat(code.httpStatus()).as(code.wire()).isIn(401, 403);
                assertThat(code.isKeyRefusal()).isTrue();
            } else {
                assertThat(code.httpStatus()).as(code.wire()).isEqualTo(502);
                assertThat(code.isKeyRefusal()).isFalse();
            }
        }
    }

    @Test
    void everyCodeHasMeaningAndHowToHandle() {
        Arrays.stream(ReasonCode.values()).forEach(code -> {
            assertThat(code.meaning()).as(code.wire()).isNotBlank();
            assertThat(code.howToHandle()).as(code.wire()).isNotBlank();
            assertThat(code.errorType()).as(code.wire()).isNotBlank();
        });
    }

    @Test
    void serializesAsTheWireCode() throws Exception {
        assertThat(Json.MAPPER.writeValueAsString(ReasonCode.MODEL_UNAVAILABLE))
                .isEqualTo("\"route_pool.model_unavailable\"");
        assertThat(Json.MAPPER.readValue("\"credential_cooldown\"", ReasonCode.class))
                .isEqualTo(ReasonCode.CREDENTIAL_COOLDOWN);
        assertThatThrownBy(() -> ReasonCode.fromWire("nope")).isInstanceOf(IllegalArgumentException.class);
    }
}
