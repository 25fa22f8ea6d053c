package io.routegateway.core.model;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reverse mappings the admin panel and the recovery probe rely on: which client names reach a
 * model key (the aliases in parentheses, none for a removed mapping) and which name a model test
 * sends for a stored key.
 */
class ModelKeysTests {

    static final List<ModelMapping> MAPPINGS = List.of(
            new ModelMapping("gpt-5.6-sol", "upstream-sol"),
            new ModelMapping("sol-latest", "upstream-sol"),
            new ModelMapping("glm-5.3", "*"),
            new ModelMapping("*", "upstream-fallback"));

    @Test
    void aModelTestSendsTheFirstClientNameThatReachesTheKey() {
        assertThat(ModelKeys.requestNameFor(CredentialKind.API, MAPPINGS, "upstream-sol"))
                .contains("gpt-5.6-sol");
        // a pass-through mapping reaches the upstream under the client's own name
        assertThat(ModelKeys.requestNameFor(CredentialKind.API, MAPPINGS, "glm-5.3"))
                .contains("glm-5.3");
    }

    @Test
    void aFixedCatchAllTargetIsTestedUnderItsOwnName() {
        assertThat(ModelKeys.requestNameFor(CredentialKind.API, MAPPINGS, "upstream-fallback"))
                .contains("upstream-fallback");
    }

    @Test
    void aKeyNoMappingReachesAnyMoreCannotBeTested() {
        List<ModelMapping> explicitOnly = MAPPINGS.subList(0, 3);
        assertThat(ModelKeys.requestNameFor(CredentialKind.API, explicitOnly, "upstream-removed"))
                .isEqualTo(Optional.empty());
    }

    @Test
    void officialAndMappingLessAccountsAreTestedWithTheKeyItself() {
        assertThat(ModelKeys.requestNameFor(CredentialKind.OFFICIAL, MAPPINGS, "claude-sonnet-4-5"))
                .contains("claude-sonnet-4-5");
        assertThat(ModelKeys.requestNameFor(CredentialKind.API, List.of(), "any-model"))
                .contains("any-model");
        assertThat(ModelKeys.requestNameFor(CredentialKind.API, null, "any-model"))
                .contains("any-model");
    }

    @Test
    void officialAccountsNeverRewriteTheModelAndChargeTheRequestedNameWithoutItsOneMSuffix() {
        // mappings on an official account are ignored: the requested name goes upstream as it is
        assertThat(ModelKeys.upstreamModel(CredentialKind.OFFICIAL, MAPPINGS, "gpt-5.6-sol"))
                .contains("gpt-5.6-sol");
        assertThat(ModelKeys.upstreamModel(CredentialKind.OFFICIAL, MAPPINGS, "claude-sonnet-4-5[1m]"))
                .contains("claude-sonnet-4-5[1m]");
        assertThat(ModelKeys.modelKey(CredentialKind.OFFICIAL, MAPPINGS, "claude-sonnet-4-5[1m]"))
                .contains("claude-sonnet-4-5");
        assertThat(ModelKeys.modelKey(CredentialKind.OFFICIAL, MAPPINGS, "claude-sonnet-4-5"))
                .contains("claude-sonnet-4-5");
        // the same name on an api account with that mapping is rewritten
        assertThat(ModelKeys.upstreamModel(CredentialKind.API, MAPPINGS, "gpt-5.6-sol"))
                .isNotEqualTo(java.util.Optional.of("gpt-5.6-sol"));
    }

    @Test
    void aliasesAreEveryClientNameThatReachesTheKeyAndNoneForARemovedMapping() {
        assertThat(ModelKeys.aliases(CredentialKind.API, MAPPINGS, "upstream-sol"))
                .containsExactly("gpt-5.6-sol", "sol-latest");
        assertThat(ModelKeys.aliases(CredentialKind.API, MAPPINGS, "glm-5.3")).containsExactly("glm-5.3");
        assertThat(ModelKeys.aliases(CredentialKind.API, MAPPINGS, "upstream-fallback"))
                .containsExactly("*");
        assertThat(ModelKeys.aliases(CredentialKind.API, MAPPINGS, "upstream-removed"))
                .isEmpty();
        assertThat(ModelKeys.aliases(CredentialKind.OFFICIAL, MAPPINGS, "upstream-sol"))
                .isEmpty();
    }

    @Test
    void theDefaultTestModelIsTheFirstNonFallbackMappingElseThePlatformsProbeModel() {
        List<ModelMapping> fallbackFirst = List.of(new ModelMapping("*", "upstream-fallback"), MAPPINGS.get(0));
        assertThat(ModelKeys.firstNonFallbackModel(Platform.OPENAI, CredentialKind.API, fallbackFirst))
                .isEqualTo("gpt-5.6-sol");
        assertThat(ModelKeys.firstNonFallbackModel(Platform.CLAUDE, CredentialKind.OFFICIAL, MAPPINGS))
                .isEqualTo(Platform.CLAUDE.baselineModels().get(0));
        assertThat(ModelKeys.firstNonFallbackModel(
                        Platform.OPENAI, CredentialKind.API, List.of(new ModelMapping("*", "*"))))
                .isEqualTo("gpt-5-mini");
        assertThat(ModelKeys.firstNonFallbackModel(Platform.OPENAI, CredentialKind.API, List.of()))
                .isEqualTo("gpt-5-mini");
    }

    @Test
    void theOpenaiProbeModelIsNoBaselineSoARelaysModelsStayUnenumerable() {
        // the probe model only says what to ask for; escalation and /models still cannot list a relay
        assertThat(Platform.OPENAI.baselineModels()).isEmpty();
        assertThat(ModelKeys.escalationModelKeys(Platform.OPENAI, CredentialKind.API, List.of()))
                .isEmpty();
        for (Platform platform : Platform.values()) {
            assertThat(platform.probeModel()).isNotBlank();
            if (!platform.baselineModels().isEmpty()) {
                assertThat(platform.probeModel())
                        .isEqualTo(platform.baselineModels().get(0));
            }
        }
    }
}
