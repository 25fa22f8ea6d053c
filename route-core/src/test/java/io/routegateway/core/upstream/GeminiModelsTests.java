package io.routegateway.core.upstream;

import java.util.List;

import io.routegateway.core.json.Json;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class GeminiModelsTests {

    @ParameterizedTest(name = "accepted: {0}")
    @ValueSource(strings = {"gemini-2.5-pro", "gemini-1.5-flash-001", "m", "gemini_exp.1206", "2024model"})
    void realModelIdsAreAccepted(String model) {
        assertThat(GeminiModels.problem(model)).isNull();
    }

    @ParameterizedTest(name = "refused: [{0}]")
    @ValueSource(
            strings = {
                "../../v1/files",
                "..",
                ".hidden",
                "m/../../admin",
                "m?alt=json&key=x",
                "m#frag",
                "m x",
                "m%2F",
                "m:generateContent",
                "m\u0000",
                "m\n",
                "mödel",
                "-dash-first",
                ""
            })
    void anythingThatCouldChangeTheUrlIsRefused(String model) {
        assertThat(GeminiModels.problem(model)).isNotNull();
    }

    @Test
    void aHugeNameIsRefusedWithoutBeingRepeated() {
        String huge = "m".repeat(100_000);
        String problem = GeminiModels.problem(huge);
        assertThat(problem).contains("100000 characters").contains(String.valueOf(GeminiModels.MAX_LENGTH));
        assertThat(problem.length()).isLessThan(200);
        assertThat(GeminiModels.problem("m".repeat(GeminiModels.MAX_LENGTH))).isNull();
        assertThat(GeminiModels.problem("m".repeat(GeminiModels.MAX_LENGTH + 1)))
                .as("one character over the limit")
                .contains("129 characters");
    }

    @Test
    void malformedPercentEncodingIsRefusedNotThrown() {
        assertThat(GeminiModels.decodePathSegment("m%zz")).isNull();
        assertThat(GeminiModels.problem(GeminiModels.decodePathSegment("m%zz"))).contains("percent-encoding");
        assertThat(GeminiModels.decodePathSegment("..%2F..%2Fv1%3Fx")).isEqualTo("../../v1?x");
    }

    @Test
    void theUpstreamPathSegmentIsEncoded() {
        assertThat(GeminiModels.pathSegment("gemini-2.5-pro")).isEqualTo("gemini-2.5-pro");
        assertThat(GeminiModels.pathSegment("../x?y#z w")).isEqualTo("..%2Fx%3Fy%23z%20w");
        assertThat(GeminiModels.pathSegment("ö")).isEqualTo("%C3%B6");
    }

    @Test
    void aMappedNameCannotLeaveTheModelsPath() {
        UpstreamRequest request = UpstreamRequests.forward(
                Platform.GEMINI,
                CredentialKind.API,
                "https://gemini.example",
                "sk-gemini-key",
                Protocol.GEMINI,
                Json.MAPPER.createObjectNode(),
                List.of(),
                "../../v1/files?x=1#y",
                false);
        assertThat(request.url())
                .isEqualTo("https://gemini.example/v1beta/models/..%2F..%2Fv1%2Ffiles%3Fx%3D1%23y:generateContent");
        assertThat(java.net.URI.create(request.url()).getRawPath().split("/"))
                .as("one segment under /v1beta/models/")
                .hasSize(4);
        assertThat(java.net.URI.create(request.url()).getQuery()).isNull();
    }
}
