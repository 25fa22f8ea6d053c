package io.routegateway.core.model;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A {@code [1m]} request keeps its 1M-context ask through any mapping, under the same model key. */
class ModelKeysOneMTests {

    @Test
    void aPlainMappingKeepsTheOneMAskOnItsTarget() {
        List<ModelMapping> mappings = List.of(new ModelMapping("claude-sonnet", "claude-up"));

        assertThat(ModelKeys.upstreamModel(CredentialKind.API, mappings, "claude-sonnet[1m]"))
                .contains("claude-up[1m]");
        assertThat(ModelKeys.modelKey(CredentialKind.API, mappings, "claude-sonnet[1m]"))
                .contains("claude-up");
        assertThat(ModelKeys.upstreamModel(CredentialKind.API, mappings, "claude-sonnet"))
                .contains("claude-up");
    }

    @Test
    void aCatchAllTargetKeepsTheOneMAskToo() {
        List<ModelMapping> mappings = List.of(new ModelMapping("*", "claude-up"));

        assertThat(ModelKeys.upstreamModel(CredentialKind.API, mappings, "anything[1m]"))
                .contains("claude-up[1m]");
    }

    @Test
    void aTargetThatAlreadyNamesOneMIsNotDoubled() {
        List<ModelMapping> mappings = List.of(new ModelMapping("alias[1m]", "up[1m]"));

        assertThat(ModelKeys.upstreamModel(CredentialKind.API, mappings, "alias[1m]"))
                .contains("up[1m]");
    }
}
