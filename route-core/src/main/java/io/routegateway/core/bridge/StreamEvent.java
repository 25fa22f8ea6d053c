package io.routegateway.core.bridge;

/**
 * One canonical stream event. An upstream decoder turns each upstream SSE event into zero or more
 * of these and a client encoder turns each of these into zero or more client SSE events, so a
 * bridged stream is translated frame by frame and never aggregated. Tool calls are numbered in
 * order of appearance within the response ({@code index}); a call's arguments arrive before the
 * next call starts.
 */
public sealed interface StreamEvent {

    /** Always the first event. {@code usage} carries what is known up front (Anthropic's input). */
    record Started(String id, String model, Usage usage) implements StreamEvent {}

    record TextDelta(String text) implements StreamEvent {}

    record ReasoningDelta(String text) implements StreamEvent {}

    /** The signature closing a reasoning block (Anthropic {@code signature_delta}). */
    record ReasoningSignature(String signature) implements StreamEvent {}

    record ToolCallStarted(int index, String id, String name, String signature) implements StreamEvent {}

    /** A fragment of a call's JSON arguments text. */
    record ToolCallArguments(int index, String fragment) implements StreamEvent {}

    /** The terminal event of a complete response, with the final usage. */
    record Finished(FinishReason reason, Usage usage) implements StreamEvent {}

    /** The upstream reported an error inside the stream; terminal too. */
    record Failed(BridgeError error) implements StreamEvent {}
}
