package io.routegateway.core.failure;

/**
 * What one upstream attempt produced, as the input of {@link OutcomeClassifier}.
 *
 * @param status HTTP status, null when none was received (connect/DNS/TLS failure, stall before
 *     the headers)
 * @param transportError what broke the exchange (names the timeout that fired and its setting),
 *     null when the exchange completed; with a status it means the body could not be read to
 *     completion
 * @param body the response body as text, may be null; for a streamed response the text seen so
 *     far (the streaming path may pass only the part it kept)
 * @param streamed the response is an SSE stream (buffered or passed through)
 * @param terminalMarkerSeen a {@link StreamCompletion} marker was seen; only meaningful when
 *     streamed
 * @param modelTest the attempt is a model connectivity test, not forwarding
 */
public record UpstreamOutcome(
        Integer status,
        String transportError,
        String body,
        boolean streamed,
        boolean terminalMarkerSeen,
        boolean modelTest) {

    /** No status at all: the request could not be sent or no response head arrived. */
    public static UpstreamOutcome transportFailure(String transportError, boolean modelTest) {
        return new UpstreamOutcome(null, transportError, null, false, false, modelTest);
    }

    /** A complete, non-streamed response. */
    public static UpstreamOutcome response(int status, String body, boolean modelTest) {
        return new UpstreamOutcome(status, null, body, false, false, modelTest);
    }

    /**
     * A buffered SSE stream: the terminal marker is derived from the whole text with the same
     * detector the streaming path feeds incrementally.
     */
    public static UpstreamOutcome bufferedStream(int status, String sseText, boolean modelTest) {
        return new UpstreamOutcome(status, null, sseText, true, StreamCompletion.hasTerminalMarker(sseText), modelTest);
    }

    /** A passed-through stream as the streaming path saw it end. */
    public static UpstreamOutcome passthroughStream(
            int status, String seenText, boolean terminalMarkerSeen, String transportError, boolean modelTest) {
        return new UpstreamOutcome(status, transportError, seenText, true, terminalMarkerSeen, modelTest);
    }
}
