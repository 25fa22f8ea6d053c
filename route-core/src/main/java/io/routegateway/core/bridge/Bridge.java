package io.routegateway.core.bridge;

import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.model.Protocol;

/**
 * A protocol bridge: a client protocol served by an upstream of another protocol, through the
 * canonical form. Requests are decoded with the client's codec and encoded with the upstream's;
 * responses, stream events and errors go the other way.
 */
public final class Bridge {

    private static final Map<Protocol, ProtocolCodec> CODECS = new EnumMap<>(Protocol.class);

    static {
        for (ProtocolCodec codec : new ProtocolCodec[] {
            new OpenAiChatCodec(), new ResponsesCodec(), new AnthropicCodec(), new GeminiCodec()
        }) {
            CODECS.put(codec.protocol(), codec);
        }
    }

    private final ProtocolCodec client;
    private final ProtocolCodec upstream;

    private Bridge(ProtocolCodec client, ProtocolCodec upstream) {
        this.client = client;
        this.upstream = upstream;
    }

    public static ProtocolCodec codec(Protocol protocol) {
        return CODECS.get(protocol);
    }

    /** The bridge serving {@code client} requests from an {@code upstream} of another protocol. */
    public static Bridge between(Protocol client, Protocol upstream) {
        if (client == upstream) {
            throw new IllegalArgumentException("no bridge needed between " + client + " and itself");
        }
        return new Bridge(CODECS.get(client), CODECS.get(upstream));
    }

    public Protocol clientProtocol() {
        return client.protocol();
    }

    public Protocol upstreamProtocol() {
        return upstream.protocol();
    }

    /** The label route check and logs show, e.g. {@code anthropic_messages->openai_chat}. */
    public String label() {
        return client.protocol().wire() + "->" + upstream.protocol().wire();
    }

    /**
     * Converts a client request. {@code pathModel} is the model in the path (Gemini clients);
     * {@code upstreamModel} the model the upstream is asked for (after the group's mapping).
     */
    public RequestConversion request(JsonNode body, String pathModel, boolean stream, String upstreamModel) {
        if (body == null || !body.isObject()) {
            return new RequestConversion.Invalid("request body must be a JSON object");
        }
        ChatRequest request;
        try {
            request = client.decodeRequest(body, pathModel, stream);
        } catch (UnsupportedConversionException e) {
            return new RequestConversion.Unsupported(client.protocol().wire() + ": " + e.getMessage());
        } catch (BridgeException e) {
            return new RequestConversion.Invalid(e.getMessage());
        }
        try {
            return new RequestConversion.Converted(request, upstream.encodeRequest(request, upstreamModel));
        } catch (UnsupportedConversionException e) {
            return new RequestConversion.Unsupported(upstream.protocol().wire() + ": " + e.getMessage());
        } catch (BridgeException e) {
            return new RequestConversion.Invalid(e.getMessage());
        }
    }

    /**
     * Converts a complete upstream response for the client.
     *
     * @throws BridgeException the upstream body is not its protocol's response ({@code response_transform})
     */
    public ObjectNode response(JsonNode upstreamBody, Instant now) {
        if (upstreamBody == null || !upstreamBody.isObject()) {
            throw new BridgeException("upstream response is not a JSON object");
        }
        return client.encodeResponse(upstream.decodeResponse(upstreamBody), now);
    }

    /** Re-shapes an upstream error into the client protocol's envelope, status kept (529 → 503). */
    public ErrorReply error(int status, String upstreamBody) {
        return client.encodeError(upstream.decodeError(status, upstreamBody));
    }

    /** A frame-by-frame translator for one bridged stream. */
    public StreamTranslator stream(ChatRequest request, Instant now) {
        return new StreamTranslator(upstream.streamDecoder(), client.streamEncoder(request, now));
    }
}
