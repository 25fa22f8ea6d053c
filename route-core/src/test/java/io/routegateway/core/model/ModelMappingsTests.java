package io.routegateway.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ModelMappingsTests {

    static JsonNode json(String text) throws Exception {
        return Json.MAPPER.readTree(text);
    }

    @Test
    void readsMappingsInOrder() throws Exception {
        assertThat(
                        ModelMappings.fromConfigJson(
                                json(
                                        "{\"model_mappings\":[{\"from\":\"b\",\"to\":\"up-b\"},{\"from\":\"*\",\"to\":\"\"},{\"from\":\"a\",\"to\":\"up-a\"}]}")))
                .containsExactly(
                        new ModelMapping("b", "up-b"), new ModelMapping("*", ""), new ModelMapping("a", "up-a"));
    }

    @Test
    void missingOrNullToPassesThrough() throws Exception {
        assertThat(ModelMappings.fromConfigJson(
                        json("{\"model_mappings\":[{\"from\":\"a\"},{\"from\":\"b\",\"to\":null}]}")))
                .allMatch(ModelMapping::passesThrough)
                .hasSize(2);
    }

    @Test
    void absentNonArrayOrNonObjectConfigIsNoMappings() throws Exception {
        assertThat(ModelMappings.fromConfigJson(json("{}"))).isEmpty();
        assertThat(ModelMappings.fromConfigJson(json("{\"model_mappings\":\"a->b\"}")))
                .isEmpty();
        assertThat(ModelMappings.fromConfigJson(json("[1,2]"))).isEmpty();
        assertThat(ModelMappings.fromConfigJson(null)).isEmpty();
    }

    @Test
    void malformedEntriesAreSkippedWithoutHidingTheOthers() throws Exception {
        assertThat(
                        ModelMappings.fromConfigJson(
                                json(
                                        "{\"model_mappings\":["
                                                + "\"a\",{\"from\":\"\"},{\"from\":7,\"to\":\"x\"},{\"from\":\"c\",\"to\":[1]},{\"from\":\"ok\",\"to\":\"up-ok\"}]}")))
                .containsExactly(new ModelMapping("ok", "up-ok"));
    }
}
