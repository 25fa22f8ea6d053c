package io.routegateway.core.upstream;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.bridge.Embeddings;
import io.routegateway.core.forward.ChatStreamUsage;
import io.routegateway.core.headers.CredentialHeaders;
import io.routegateway.core.headers.HeaderPolicy;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelKeys;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;

/**
 * Builds upstream requests: the single implementation used by gateway forwarding and by model
 * connectivity tests, so a probe exercises exactly what real traffic does.
 */
public final class UpstreamRequests {

    static final String ANTHROPIC_VERSION = "2023-06-01";
    static final String ONE_M_BETA = "context-1m-2025-08-07";
    static final String OAUTH_BETA = "oauth-2025-04-20";
    /** The header the ChatGPT backend reads the subscription account from (Codex official). */
    public static final String CHATGPT_ACCOUNT_ID = "chatgpt-account-id";
    /** The longest account id sent as a header. */
    static final int MAX_ACCOUNT_ID = 256;

    private UpstreamRequests() {}

    /**
     * @param clientBody the client's JSON body (for Gemini the model is in the path instead)
     * @param clientHeaders the client's headers (name, value); only what {@link HeaderPolicy} allows
     *     the upstream's protocol passes, and no account-steering header (the credential has none
     *     configured here: see the overload taking {@link CredentialHeaders})
     * @param upstreamModel the mapped model name; a trailing {@code [1m]} becomes the 1M-context
     *     beta header
     */
    public static UpstreamRequest forward(
            Platform platform,
            CredentialKind kind,
            String baseUrl,
            String secret,
            Protocol protocol,
            JsonNode clientBody,
            List<Map.Entry<String, String>> clientHeaders,
            String upstreamModel,
            boolean stream) {
        return forward(
                platform, kind, baseUrl, secret, protocol, clientBody, clientHeaders, upstreamModel, stream, null);
    }

    /**
     * {@link #forward(Platform, CredentialKind, String, String, Protocol, JsonNode, List, String,
     * boolean)} for an OAuth-managed official account.
     *
     * @param accountId the platform account the access token belongs to ({@code
     *     CredentialSnapshot.oauth().accountId()}), null when none: a Codex official request names
     *     it in {@code chatgpt-account-id}, as the Codex CLI does
     * @throws IllegalArgumentException an account id that cannot be a header value (a control
     *     character, non-ASCII, longer than {@link #MAX_ACCOUNT_ID}): the request is not built
     */
    public static UpstreamRequest forward(
            Platform platform,
            CredentialKind kind,
            String baseUrl,
            String secret,
            Protocol protocol,
            JsonNode clientBody,
            List<Map.Entry<String, String>> clientHeaders,
            String upstreamModel,
            boolean stream,
            String accountId) {
        return forward(
                platform,
                kind,
                baseUrl,
                secret,
                protocol,
                clientBody,
                clientHeaders,
                upstreamModel,
                stream,
                accountId,
                CredentialHeaders.NONE);
    }

    /**
     * {@link #forward(Platform, CredentialKind, String, String, Protocol, JsonNode, List, String,
     * boolean, String)} with the credential's account-steering headers ({@link HeaderPolicy}).
     */
    public static UpstreamRequest forward(
            Platform platform,
            CredentialKind kind,
            String baseUrl,
            String secret,
            Protocol protocol,
            JsonNode clientBody,
            List<Map.Entry<String, String>> clientHeaders,
            String upstreamModel,
            boolean stream,
            String accountId,
            CredentialHeaders steering) {
        boolean oneM =
                upstreamModel != null && !ModelKeys.stripOneM(upstreamModel).equals(upstreamModel);
        String model = ModelKeys.stripOneM(upstreamModel);
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        headers.add(Map.entry("content-type", "application/json"));
        headers.add(Map.entry("accept", stream ? "text/event-stream" : "application/json"));
        headers.addAll(HeaderPolicy.forward(protocol, clientHeaders, steering));
        addAuth(platform, kind, protocol, secret, headers);
        if (platform == Platform.CODEX && kind == CredentialKind.OFFICIAL && accountId != null) {
            headers.add(Map.entry(CHATGPT_ACCOUNT_ID, headerSafeAccountId(accountId)));
        }
        if (oneM && protocol == Protocol.ANTHROPIC_MESSAGES) {
            appendBeta(headers, ONE_M_BETA);
        }
        byte[] body = rewriteModel(protocol, clientBody, model, stream);
        return new UpstreamRequest("POST", url(baseUrl, protocol, model, stream), headers, body, stream, model);
    }

    /**
     * The count_tokens call beside a native Anthropic Messages request: the same headers and body,
     * posted to {@code /v1/messages/count_tokens}, never a stream.
     */
    public static UpstreamRequest countTokens(UpstreamRequest messages) {
        return new UpstreamRequest(
                "POST",
                messages.url() + "/count_tokens",
                messages.headers(),
                messages.body(),
                false,
                messages.upstreamModel());
    }

    /**
     * The token-count call beside a native request built by {@link #forward} (not a stream):
     * Anthropic's {@code /v1/messages/count_tokens}, or Gemini's {@code :countTokens} on the same
     * model, where a {@code generateContentRequest.model} the client named becomes the mapped one.
     */
    public static UpstreamRequest countTokens(UpstreamRequest generation, JsonNode clientBody) {
        String url = generation.url();
        if (!url.endsWith(":generateContent")) {
            return countTokens(generation);
        }
        byte[] body = generation.body();
        JsonNode inner = clientBody == null ? null : clientBody.get("generateContentRequest");
        if (inner instanceof ObjectNode request && request.has("model")) {
            // copies of the two objects changed; the contents (the prompt) are shared, not copied
            ObjectNode copy = shallowCopy((ObjectNode) clientBody);
            copy.set(
                    "generateContentRequest",
                    shallowCopy(request).put("model", "models/" + generation.upstreamModel()));
            body = copy.toString().getBytes(StandardCharsets.UTF_8);
        }
        return new UpstreamRequest(
                "POST",
                url.substring(0, url.length() - ":generateContent".length()) + ":countTokens",
                generation.headers(),
                body,
                false,
                generation.upstreamModel());
    }

    /**
     * An embeddings request: to an OpenAI-compatible upstream ({@code protocol} OpenAI Chat) the
     * client's body with the mapped model on {@code /v1/embeddings}; to Gemini the body converted by
     * {@link Embeddings#geminiRequest} on {@code /v1beta/models/{model}:batchEmbedContents}. Same
     * headers and auth as {@link #forward}; never a stream.
     *
     * @throws io.routegateway.core.bridge.UnsupportedConversionException token-id input to Gemini
     */
    public static UpstreamRequest embeddings(
            Platform platform,
            CredentialKind kind,
            String baseUrl,
            String secret,
            Protocol protocol,
            JsonNode body,
            List<Map.Entry<String, String>> clientHeaders,
            String upstreamModel) {
        return embeddings(
                platform, kind, baseUrl, secret, protocol, body, clientHeaders, upstreamModel, CredentialHeaders.NONE);
    }

    /** {@link #embeddings(Platform, CredentialKind, String, String, Protocol, JsonNode, List, String)} with the credential's steering headers. */
    public static UpstreamRequest embeddings(
            Platform platform,
            CredentialKind kind,
            String baseUrl,
            String secret,
            Protocol protocol,
            JsonNode body,
            List<Map.Entry<String, String>> clientHeaders,
            String upstreamModel,
            CredentialHeaders steering) {
        JsonNode sent =
                protocol == Protocol.GEMINI ? Embeddings.geminiRequest(body, ModelKeys.stripOneM(upstreamModel)) : body;
        UpstreamRequest generation = forward(
                platform, kind, baseUrl, secret, protocol, sent, clientHeaders, upstreamModel, false, null, steering);
        String model = generation.upstreamModel();
        String url;
        if (protocol == Protocol.GEMINI) {
            String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
            String path = "/v1beta/models/" + GeminiModels.pathSegment(model) + ":batchEmbedContents";
            url = base + (base.endsWith("/v1beta") ? path.substring(7) : path);
        } else if (protocol == Protocol.OPENAI_CHAT) {
            String chat = generation.url();
            url = chat.substring(0, chat.length() - "/chat/completions".length()) + "/embeddings";
        } else {
            throw new IllegalArgumentException("no embeddings API in " + protocol);
        }
        return new UpstreamRequest("POST", url, generation.headers(), generation.body(), false, model);
    }

    /** The smallest real generation request for a model connectivity test. */
    public static UpstreamRequest modelTest(
            Platform platform, CredentialKind kind, String baseUrl, String secret, String upstreamModel) {
        return modelTest(platform, kind, baseUrl, secret, upstreamModel, null);
    }

    /** {@link #modelTest(Platform, CredentialKind, String, String, String)} naming the official account. */
    public static UpstreamRequest modelTest(
            Platform platform,
            CredentialKind kind,
            String baseUrl,
            String secret,
            String upstreamModel,
            String accountId) {
        Protocol protocol = testProtocol(platform);
        ObjectNode body = Json.MAPPER.createObjectNode();
        switch (protocol) {
            case ANTHROPIC_MESSAGES:
                body.put("max_tokens", 16);
                body.putArray("messages").addObject().put("role", "user").put("content", "ping");
                break;
            case OPENAI_RESPONSES:
                body.put("input", "ping");
                body.put("max_output_tokens", 16);
                break;
            case GEMINI:
                body.putArray("contents")
                        .addObject()
                        .putArray("parts")
                        .addObject()
                        .put("text", "ping");
                break;
            default:
                body.putArray("messages").addObject().put("role", "user").put("content", "ping");
                body.put("max_tokens", 16);
        }
        return forward(platform, kind, baseUrl, secret, protocol, body, List.of(), upstreamModel, false, accountId);
    }

    /** The protocol a model test speaks to a platform: its first native protocol. */
    public static Protocol testProtocol(Platform platform) {
        return platform.primaryProtocol();
    }

    static String url(String baseUrl, Protocol protocol, String model, boolean stream) {
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        String path;
        switch (protocol) {
            case OPENAI_CHAT:
                path = "/v1/chat/completions";
                break;
            case OPENAI_RESPONSES:
                path = "/v1/responses";
                break;
            case ANTHROPIC_MESSAGES:
                path = "/v1/messages";
                break;
            case GEMINI:
                // encoded: the name must not be able to change the path or add a query
                path = "/v1beta/models/" + GeminiModels.pathSegment(model)
                        + (stream ? ":streamGenerateContent?alt=sse" : ":generateContent");
                break;
            default:
                throw new IllegalArgumentException("unsupported protocol " + protocol);
        }
        // a base URL that already names the API version ("https://relay/v1") is not doubled
        if (base.endsWith("/v1") && path.startsWith("/v1/")) {
            path = path.substring(3);
        } else if (base.endsWith("/v1beta") && path.startsWith("/v1beta/")) {
            path = path.substring(7);
        }
        return base + path;
    }

    /** The account id as a header value: visible ASCII only, never a way to add a header line. */
    static String headerSafeAccountId(String accountId) {
        if (accountId.isEmpty() || accountId.length() > MAX_ACCOUNT_ID) {
            throw new IllegalArgumentException("the account id is empty or longer than " + MAX_ACCOUNT_ID);
        }
        for (int i = 0; i < accountId.length(); i++) {
            char c = accountId.charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                throw new IllegalArgumentException("the account id holds a character a header cannot carry");
            }
        }
        return accountId;
    }

    private static void addAuth(
            Platform platform,
            CredentialKind kind,
            Protocol protocol,
            String secret,
            List<Map.Entry<String, String>> headers) {
        if (protocol == Protocol.ANTHROPIC_MESSAGES) {
            if (headers.stream().noneMatch(h -> h.getKey().equals("anthropic-version"))) {
                headers.add(Map.entry("anthropic-version", ANTHROPIC_VERSION));
            }
            if (kind == CredentialKind.OFFICIAL) {
                headers.add(Map.entry("authorization", "Bearer " + secret));
                appendBeta(headers, OAUTH_BETA);
            } else {
                headers.add(Map.entry("x-api-key", secret));
            }
        } else if (protocol == Protocol.GEMINI) {
            // an official (OAuth) account's access token is a bearer token; an api key is x-goog-api-key
            headers.add(
                    kind == CredentialKind.OFFICIAL
                            ? Map.entry("authorization", "Bearer " + secret)
                            : Map.entry("x-goog-api-key", secret));
        } else {
            headers.add(Map.entry("authorization", "Bearer " + secret));
        }
    }

    private static void appendBeta(List<Map.Entry<String, String>> headers, String beta) {
        for (int i = 0; i < headers.size(); i++) {
            Map.Entry<String, String> header = headers.get(i);
            if (header.getKey().equals("anthropic-beta")) {
                if (!header.getValue().contains(beta)) {
                    headers.set(i, Map.entry("anthropic-beta", header.getValue() + "," + beta));
                }
                return;
            }
        }
        headers.add(Map.entry("anthropic-beta", beta));
    }

    /**
     * The body with the mapped model; an OpenAI Chat stream also asks for its usage ({@code
     * stream_options.include_usage}, the client's other stream options kept) so that its tokens are
     * settled (see {@link ChatStreamUsage}: a client that did not ask does not see the usage frame).
     */
    private static byte[] rewriteModel(Protocol protocol, JsonNode clientBody, String model, boolean stream) {
        JsonNode body = clientBody == null ? Json.MAPPER.createObjectNode() : clientBody;
        boolean askUsage = protocol == Protocol.OPENAI_CHAT
                && stream
                && body.path("stream").asBoolean(false)
                && !ChatStreamUsage.clientAsked(body);
        if (protocol != Protocol.GEMINI && body.isObject() && (model != null || askUsage)) {
            // the top level only: every attempt replaces the model, and a deep copy of a large prompt
            // per attempt cost as much memory again as the parsed body (the client's body is shared
            // by the attempts and never changed)
            ObjectNode copy = shallowCopy((ObjectNode) body);
            if (model != null) {
                copy.put("model", model);
            }
            if (askUsage) {
                JsonNode options = copy.get("stream_options");
                copy.set(
                        "stream_options",
                        (options instanceof ObjectNode existing
                                        ? shallowCopy(existing)
                                        : Json.MAPPER.createObjectNode())
                                .put("include_usage", true));
            }
            body = copy;
        }
        return Json.write(body).getBytes(StandardCharsets.UTF_8);
    }

    /** A new object with the same members (the member values are shared, not copied). */
    static ObjectNode shallowCopy(ObjectNode original) {
        ObjectNode copy = Json.MAPPER.createObjectNode();
        copy.setAll(original);
        return copy;
    }
}
