package io.routegateway.core.forward;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class RequestedModelTests {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{}",
                "{\"model\":null}",
                "{\"model\":5}",
                "{\"model\":\"\"}",
                "{\"model\":\" \\t \"}",
                "{\"model\":[\"gpt\"]}",
                "{\"model\":{\"id\":\"gpt\"}}",
                "{\"model\":true}"
            })
    void noUsableModelIsMissing(String body) throws Exception {
        RequestedModel model = RequestedModel.of(Json.MAPPER.readTree(body).get("model"));
        assertThat(model).isInstanceOf(RequestedModel.Missing.class);
        assertThat(((RequestedModel.Missing) model).message()).startsWith("the request names no model");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mock\u0000model", "a\nb", "x\u007f", "a\uD800", "\uDC00b"})
    void unstorableOrControlCharactersAreInvalid(String name) {
        RequestedModel model = RequestedModel.of(Json.MAPPER.getNodeFactory().textNode(name));
        assertThat(model).isInstanceOf(RequestedModel.Invalid.class);
        assertThat(((RequestedModel.Invalid) model).message()).doesNotContain(name);
    }

    @Test
    void anOverlongNameIsInvalidAndNotQuoted() {
        String name = "m".repeat(100_000);
        RequestedModel model = RequestedModel.of(Json.MAPPER.getNodeFactory().textNode(name));
        assertThat(model).isInstanceOf(RequestedModel.Invalid.class);
        assertThat(((RequestedModel.Invalid) model).message())
                .contains("100000")
                .hasSizeLessThan(200);
        assertThat(RequestedModel.of(Json.MAPPER.getNodeFactory().textNode("m".repeat(RequestedModel.MAX_CHARS))))
                .isInstanceOf(RequestedModel.Named.class);
        assertThat(RequestedModel.of(Json.MAPPER.getNodeFactory().textNode("m".repeat(RequestedModel.MAX_CHARS + 1))))
                .as("one character over the limit of 256")
                .isInstanceOf(RequestedModel.Invalid.class);
    }

    @Test
    void anyOtherNameIsKeptAsSent() throws Exception {
        JsonNode field = Json.MAPPER
                .readTree("{\"model\":\" gpt-5 模型 \\uD83D\\uDE00 invalid_grant\"}")
                .get("model");
        assertThat(RequestedModel.of(field))
                .isEqualTo(new RequestedModel.Named(" gpt-5 模型 \uD83D\uDE00 invalid_grant"));
    }
}
