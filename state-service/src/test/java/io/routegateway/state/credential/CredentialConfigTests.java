package io.routegateway.state.credential;

import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

import io.routegateway.state.credential.CredentialInput.MappingInput;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.Inputs;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Model mappings have bounds; one row per refused input, each with its code and without the value echoed. */
class CredentialConfigTests {

    private static final String NUL = "\u0000";
    private static final String LONE = "\uD800";
    private static final String MEGABYTE = "x".repeat(1 << 20);

    @Test
    void modelMappings() {
        refused(
                () -> CredentialConfig.mappings(List.of(new MappingInput("gpt" + NUL, "up"))),
                AdminCodes.MODEL_MAPPINGS);
        refused(
                () -> CredentialConfig.mappings(List.of(new MappingInput("gpt", "up" + LONE))),
                AdminCodes.MODEL_MAPPINGS);
        refused(() -> CredentialConfig.mappings(List.of(new MappingInput(MEGABYTE, "up"))), AdminCodes.MODEL_MAPPINGS);
        refused(() -> CredentialConfig.mappings(List.of(new MappingInput("gpt", MEGABYTE))), AdminCodes.MODEL_MAPPINGS);
        refused(
                () -> CredentialConfig.mappings(
                        Collections.nCopies(Inputs.MAX_MAPPINGS + 1, new MappingInput("a", "b"))),
                AdminCodes.MODEL_MAPPINGS);
        assertThat(CredentialConfig.mappings(List.of(new MappingInput("m".repeat(Inputs.MAX_MODEL), "*"))))
                .hasSize(1);
    }

    private static void refused(Supplier<?> input, String code) {
        assertThatThrownBy(input::get).isInstanceOfSatisfying(AdminException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.getMessage()).hasSizeLessThan(300).doesNotContain(NUL).doesNotContain("xxxxxxxx");
        });
    }
}
