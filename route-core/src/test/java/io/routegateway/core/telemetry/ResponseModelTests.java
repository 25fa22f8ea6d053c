package io.routegateway.core.telemetry;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ResponseModelTests {

    @Test
    void theAnsweredModelIsReadFromEachProtocolsAnswer() {
        assertThat(
                        ResponseModel.of(
                                "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"model\":\"gpt-4o-2024-08-06\",\"choices\":[]}"))
                .isEqualTo("gpt-4o-2024-08-06");
        assertThat(ResponseModel.of(
                        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\","
                                + "\"model\":\"claude-sonnet-4-5-20250929\"}}\n\n"))
                .isEqualTo("claude-sonnet-4-5-20250929");
        assertThat(ResponseModel.of("data: {\"candidates\":[],\"modelVersion\":\"gemini-2.5-pro\"}\n\n"))
                .isEqualTo("gemini-2.5-pro");
    }

    @Test
    void generatedTextQuotingAModelFieldIsNotTheAnswersModel() {
        assertThat(ResponseModel.of(
                        "{\"choices\":[{\"message\":{\"content\":\"say {\\\"model\\\": \\\"evil\\\"}\"}}]}"))
                .isNull();
        assertThat(ResponseModel.of("{\"model\":\"" + "x".repeat(ResponseModel.MAX_CHARS + 1) + "\"}"))
                .isNull();
        assertThat(ResponseModel.of("{\"model\":\"a\\nb\"}")).isNull();
        assertThat(ResponseModel.of(null)).isNull();
    }
}
