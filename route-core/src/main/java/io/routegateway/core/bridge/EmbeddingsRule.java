package io.routegateway.core.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.ProtocolRule;

/**
 * Which credentials serve an OpenAI {@code POST /v1/embeddings} request: an API credential of a
 * platform that speaks OpenAI Chat Completions natively (OpenAI-compatible relays, Grok, Codex)
 * gets it forwarded; a Gemini API credential through the bridge to {@code :batchEmbedContents}
 * (text input only); nothing else has an embeddings API (Claude, and official accounts, whose
 * subscription endpoints have none), so those are left out with {@code operation_unsupported}.
 */
public final class EmbeddingsRule implements ProtocolRule {

    /** The bridge label route check and logs show for a Gemini credential. */
    public static final String GEMINI_LABEL = "openai_embeddings->gemini_embeddings";

    private final JsonNode body;
    private final boolean nativeOnly;
    private String unsupported;

    /**
     * @param body the request body, null when only the route is asked about (route check without a
     *     body: text input is assumed)
     * @param nativeOnly the request refuses the bridge ({@code native_route_required})
     */
    public EmbeddingsRule(JsonNode body, boolean nativeOnly) {
        this.body = body;
        this.nativeOnly = nativeOnly;
    }

    @Override
    public Serving serving(CredentialSnapshot credential, Protocol protocol) {
        Platform platform = credential.platform();
        if (platform == null) {
            return Serving.NATIVE_REQUIRED;
        }
        if (isNative(credential, protocol)) {
            return Serving.NATIVE;
        }
        if (credential.kind() == CredentialKind.OFFICIAL) {
            return unsupported("embeddings: official " + platform.wire() + " accounts have no embeddings API");
        }
        if (platform != Platform.GEMINI) {
            return unsupported("embeddings: platform " + platform.wire() + " has no embeddings API");
        }
        if (nativeOnly) {
            return Serving.NATIVE_REQUIRED;
        }
        if (body != null
                && body.get("input") != null
                && Embeddings.problem(body) == null
                && Embeddings.tokenInput(body)) {
            return unsupported(Embeddings.TOKEN_INPUT);
        }
        return Serving.BRIDGED;
    }

    private Serving unsupported(String detail) {
        if (unsupported == null) {
            unsupported = detail;
        }
        return Serving.UNSUPPORTED;
    }

    @Override
    public String unsupportedDetail() {
        return unsupported;
    }

    @Override
    public boolean isNative(CredentialSnapshot credential, Protocol protocol) {
        return credential.kind() == CredentialKind.API
                && credential.platform() != null
                && credential.platform().servesNatively(Protocol.OPENAI_CHAT);
    }

    @Override
    public String bridgeLabel(Protocol client, CredentialSnapshot credential) {
        return GEMINI_LABEL;
    }
}
