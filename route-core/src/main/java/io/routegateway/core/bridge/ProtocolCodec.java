package io.routegateway.core.bridge;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.model.Protocol;

/**
 * One protocol's side of every bridge: to and from the canonical form, for requests, responses,
 * stream events and errors. A bridge between two protocols is the client's decode followed by the
 * upstream's encode (and back), so adding a protocol adds one codec, not one converter per pair.
 */
public interface ProtocolCodec {

    Protocol protocol();

    /**
     * Reads a client request. {@code pathModel} is the model named by the path (Gemini), null
     * otherwise; {@code stream} whether the client asked for a stream.
     *
     * @throws UnsupportedConversionException the request needs something only this protocol's
     *     upstream can do
     * @throws BridgeException the body is not this protocol's request shape
     */
    ChatRequest decodeRequest(JsonNode body, String pathModel, boolean stream);

    /**
     * Writes the upstream request for {@code model}.
     *
     * @throws UnsupportedConversionException the request cannot be expressed in this protocol
     */
    ObjectNode encodeRequest(ChatRequest request, String model);

    /** Reads an upstream response body. @throws BridgeException not this protocol's response */
    ChatResponse decodeResponse(JsonNode body);

    ObjectNode encodeResponse(ChatResponse response, Instant now);

    StreamDecoder streamDecoder();

    StreamEncoder streamEncoder(ChatRequest request, Instant now);

    /** Reads an upstream error; {@code body} may be null or not JSON at all. */
    BridgeError decodeError(int status, String body);

    ErrorReply encodeError(BridgeError error);

    /** Upstream SSE events to canonical events; stateful, one per stream. */
    interface StreamDecoder {
        List<StreamEvent> decode(SseEvent event);

        /** The upstream stream ended; events it implies (e.g. a finish seen without its marker). */
        default List<StreamEvent> end() {
            return List.of();
        }
    }

    /** Canonical events to client SSE events; stateful, one per stream. */
    interface StreamEncoder {
        List<SseEvent> encode(StreamEvent event);
    }
}
