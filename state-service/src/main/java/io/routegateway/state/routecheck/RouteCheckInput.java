package io.routegateway.state.routecheck;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A dry run of routing: exactly one of {@code access_key_id} and {@code access_key}.
 *
 * @param accessKey the plaintext key, checked by its hash exactly as the gateway does (never stored
 *     or logged)
 * @param protocol {@code openai_chat}, {@code openai_responses}, {@code anthropic_messages} or
 *     {@code gemini}
 * @param model the requested model; null for a request that names none
 * @param prompt the request's instructions or first user input, for the affinity key
 * @param body alternatively a whole request body in the protocol's shape; its affinity prefix is
 *     extracted as the gateway does
 * @param rememberedCredentialId simulate that the gateway's affinity table remembers this credential
 *     for the prompt (affinity tables live in each gateway's memory, not here)
 * @param rememberedGroupId the group it was remembered in; defaults to the first group of the key's
 *     scope whose pool holds the credential
 * @param excludedCredentialIds credentials already tried by the request ({@code
 *     credential_not_allowed})
 * @param seed seeds the weighted draw, to make a check reproducible
 * @param nativeOnly the request refuses conversion, as the gateway's {@code x-route-native-only: true}
 *     header does ({@code native_route_required} instead of a bridge)
 * @param operation {@code generate} (the default: the protocol's generation endpoint) or {@code
 *     embeddings} (the gateway's {@code POST /v1/embeddings}, protocol {@code openai_chat}, which may
 *     be left out)
 */
@Schema(name = "RouteCheckInput")
public record RouteCheckInput(
        String accessKeyId,
        @Schema(writeOnly = true) String accessKey,
        String protocol,
        String model,
        String prompt,
        @Schema(implementation = Object.class) JsonNode body,
        String rememberedCredentialId,
        String rememberedGroupId,
        List<String> excludedCredentialIds,
        Long seed,
        Boolean nativeOnly,
        String operation) {

    /** Never prints the plaintext key. */
    @Override
    public String toString() {
        return "RouteCheckInput[accessKeyId=" + accessKeyId + ", accessKey=" + (accessKey == null ? "absent" : "***")
                + ", protocol=" + protocol + ", model=" + model + "]";
    }
}
