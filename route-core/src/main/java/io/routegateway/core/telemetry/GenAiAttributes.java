package io.routegateway.core.telemetry;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.forward.Operation;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelKeys;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;

/**
 * Values of the OpenTelemetry GenAI semantic conventions' attributes ({@code gen_ai.operation.name},
 * {@code gen_ai.provider.name}, {@code gen_ai.request.model}, {@code error.type}) as the gateway's
 * GenAI metrics tag them. Every value comes from a closed set or from the operators' configuration,
 * never from what a client sent, so the number of series stays bounded.
 */
public final class GenAiAttributes {

    /** A provider or model the conventions have no name for, or one a client chose. */
    public static final String OTHER = "_OTHER";

    /** No credential was selected (the pool refused the request): no provider, no model. */
    public static final String NONE = "none";

    private GenAiAttributes() {}

    /**
     * {@code gen_ai.operation.name}: {@code chat} (Chat Completions, Responses, Messages), {@code
     * generate_content} (Gemini), {@code embeddings}, and {@code count_tokens}, which the conventions
     * do not name.
     */
    public static String operationName(Operation operation, Protocol protocol) {
        if (operation == Operation.EMBEDDINGS) {
            return "embeddings";
        }
        if (operation == Operation.COUNT_TOKENS) {
            return "count_tokens";
        }
        return protocol == Protocol.GEMINI ? "generate_content" : "chat";
    }

    /**
     * {@code gen_ai.provider.name} of the platform that served (or last failed) the request: the
     * conventions' {@code anthropic}, {@code openai}, {@code gcp.gemini} and {@code x_ai}; OpenAI-compatible
     * relays are {@code openai}. {@link #NONE} when no credential was selected.
     */
    public static String providerName(Platform platform) {
        if (platform == null) {
            return NONE;
        }
        return switch (platform) {
            case CLAUDE -> "anthropic";
            case CODEX, OPENAI -> "openai";
            case GEMINI -> "gcp.gemini";
            case GROK -> "x_ai";
        };
    }

    /**
     * {@code gen_ai.request.model}: the model key the request was sent upstream as, when the
     * credential's configuration names it (a mapping's fixed target, or the platform baseline of an
     * official or mapping-less account); {@link #OTHER} for a name only a pass-through mapping or an
     * official account's own choice would send (the client chose it), {@link #NONE} without one.
     */
    public static String requestModel(CredentialSnapshot credential, String modelKey) {
        if (credential == null || modelKey == null || modelKey.isBlank()) {
            return NONE;
        }
        return isNamed(credential, modelKey) ? modelKey : OTHER;
    }

    /**
     * {@code error.type}: empty for a successful request (Prometheus reads an empty label as an
     * absent one), else the HTTP status the client got, or {@code stream_failed} when a stream that
     * had begun with 200 ended in failure.
     */
    public static String errorType(int status, boolean success) {
        if (success) {
            return "";
        }
        return status >= 400 && status <= 599 ? Integer.toString(status) : "stream_failed";
    }

    private static boolean isNamed(CredentialSnapshot credential, String modelKey) {
        Platform platform = credential.platform();
        if (credential.kind() == CredentialKind.OFFICIAL
                || credential.modelMappings().isEmpty()) {
            if (platform == null) {
                return false;
            }
            for (String baseline : platform.baselineModels()) {
                if (ModelKeys.stripOneM(baseline).equals(modelKey)) {
                    return true;
                }
            }
            return false;
        }
        for (ModelMapping mapping : credential.modelMappings()) {
            if (!mapping.passesThrough() && ModelKeys.stripOneM(mapping.to()).equals(modelKey)) {
                return true;
            }
        }
        return false;
    }
}
