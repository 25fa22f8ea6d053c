package io.routegateway.core.json;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class JsonReadObjectTests {

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"  "})
    void noTextIsAnEmptyObject(String text) {
        assertThat(Json.readObject(text))
                .hasValueSatisfying(node -> assertThat(node.isEmpty()).isTrue());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":1", "[1]", "\"x\"", "{\"a\":1} {\"b\":2}", "{\"a\":1} trailing", "null"})
    void anythingButOneObjectIsEmpty(String text) {
        assertThat(Json.readObject(text)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"model_mappings\":[],\"hand_note\":\"kept\"}"})
    void anObjectIsReadWithEveryKey(String text) {
        assertThat(Json.readObject(text))
                .hasValueSatisfying(
                        node -> assertThat(node.get("hand_note").asText()).isEqualTo("kept"));
    }
}
