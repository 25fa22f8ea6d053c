package io.routegateway.demo;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Canned bodies per protocol: complete answers, SSE streams with their terminal events, errors. */
final class Replies {

    enum Protocol {
        OPENAI_CHAT,
        OPENAI_RESPONSES,
        ANTHROPIC,
        GEMINI
    }

    private Replies() {}

    static String answer(Protocol protocol, String model, String text) {
        switch (protocol) {
            case OPENAI_RESPONSES:
                return "{\"id\":\"resp_demo\",\"object\":\"response\",\"status\":\"completed\",\"model\":\"" + model
                        + "\",\"output\":[{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\""
                        + text + "\"}]}],\"usage\":{\"input_tokens\":12,\"output_tokens\":8,\"total_tokens\":20}}";
            case ANTHROPIC:
                return "{\"id\":\"msg_demo\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"" + model
                        + "\",\"content\":[{\"type\":\"text\",\"text\":\"" + text
                        + "\"}],\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":12,\"output_tokens\":8}}";
            case GEMINI:
                return "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"" + text
                        + "\"}]},\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":12,\"candidatesTokenCount\":8,\"totalTokenCount\":20},\"modelVersion\":\""
                        + model + "\"}";
            default:
                return "{\"id\":\"chatcmpl-demo\",\"object\":\"chat.completion\",\"created\":1767225600,\"model\":\""
                        + model
                        + "\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"" + text
                        + "\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":8,\"total_tokens\":20}}";
        }
    }

    /** The SSE frames of a streamed answer; the last element is the terminal event. */
    static List<String> stream(Protocol protocol, String model, String text) {
        List<String> frames = new ArrayList<>();
        String[] words = text.split(" ");
        switch (protocol) {
            case OPENAI_RESPONSES:
                frames.add(
                        "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_demo\",\"model\":\""
                                + model + "\",\"status\":\"in_progress\"}}\n\n");
                for (String word : words) {
                    frames.add(
                            "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\""
                                    + word + " \"}\n\n");
                }
                frames.add(
                        "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_demo\",\"status\":\"completed\",\"usage\":{\"input_tokens\":12,\"output_tokens\":8,\"total_tokens\":20}}}\n\n");
                break;
            case ANTHROPIC:
                frames.add(
                        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_demo\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\""
                                + model
                                + "\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":12,\"output_tokens\":1}}}\n\n");
                frames.add(
                        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n");
                for (String word : words) {
                    frames.add(
                            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\""
                                    + word + " \"}}\n\n");
                }
                frames.add("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n");
                frames.add(
                        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":8}}\n\n");
                frames.add("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
                break;
            case GEMINI:
                for (String word : words) {
                    frames.add("data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"" + word
                            + " \"}]}}]}\n\n");
                }
                frames.add(
                        "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"\"}]},\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":12,\"candidatesTokenCount\":8,\"totalTokenCount\":20}}\n\n");
                break;
            default:
                for (String word : words) {
                    frames.add("data: {\"id\":\"chatcmpl-demo\",\"object\":\"chat.completion.chunk\",\"model\":\""
                            + model + "\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + word
                            + " \"},\"finish_reason\":null}]}\n\n");
                }
                frames.add(
                        "data: {\"id\":\"chatcmpl-demo\",\"object\":\"chat.completion.chunk\",\"model\":\"" + model
                                + "\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":8,\"total_tokens\":20}}\n\n");
                frames.add("data: [DONE]\n\n");
        }
        return frames;
    }

    static String statusError(int status) {
        String type = status == 429 ? "rate_limit_error" : status >= 500 ? "server_error" : "authentication_error";
        String message = status == 429
                ? "Rate limit reached for this model, retry later"
                : status >= 500 ? "upstream overloaded" : "invalid api key";
        return "{\"error\":{\"message\":\"" + message + "\",\"type\":\"" + type + "\",\"code\":\"" + type + "\"}}";
    }

    static String errorBody(String message) {
        ObjectNode error = JsonNodeFactory.instance.objectNode();
        error.putObject("error")
                .put("message", message == null ? "upstream model crashed while generating" : message)
                .put("type", "upstream_error")
                .put("code", "upstream_error");
        return error.toString();
    }

    static String quotaBody() {
        return "{\"error\":{\"message\":\"Budget pool quota has been exhausted. Please ask an administrator to increase the limit or select another budget pool.\",\"type\":\"bad_response_status_code\",\"param\":\"\",\"code\":\"bad_response_status_code\"}}";
    }
}
