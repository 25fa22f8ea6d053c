package io.routegateway.core.bridge;

import java.util.ArrayList;
import java.util.List;

import io.routegateway.core.model.Protocol;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a protocol can express everything in the canonical form, writing it and reading it back
 * is the identity: for requests (text, images by URL and inline, parallel tool calls with their
 * ids, tool results, tool definitions, limits) and for streams (text, parallel tool calls with
 * fragmented arguments, finish reason, usage), in each of the four protocols.
 */
class CodecRoundTripPropertyTests {

    private static final Arbitrary<String> WORDS = Arbitraries.strings()
            .alpha()
            .numeric()
            .withChars(' ', 'é', '中')
            .ofMinLength(1)
            .ofMaxLength(24)
            .map(s -> s.replace("Z", "👋"));
    private static final Arbitrary<String> IDS = Arbitraries.strings()
            .alpha()
            .numeric()
            .ofMinLength(4)
            .ofMaxLength(12)
            .map(s -> "call_" + s);

    @Provide
    Arbitrary<Protocol> protocols() {
        return Arbitraries.of(Protocol.values());
    }

    @Provide
    Arbitrary<ChatRequest> requests() {
        Arbitrary<Part> userContent = Arbitraries.oneOf(
                WORDS.map(Part.Text::new),
                WORDS.map(w -> Part.Image.ofUrl("https://example.com/" + w.replace(' ', '_') + ".png")),
                Arbitraries.strings()
                        .alpha()
                        .ofMinLength(4)
                        .ofMaxLength(16)
                        .map(d -> Part.Image.inline("image/png", d)));
        Arbitrary<List<Part>> userParts = userContent.list().ofMinSize(1).ofMaxSize(3);
        Arbitrary<List<String[]>> calls = Combinators.combine(IDS, WORDS.filter(w -> !w.isBlank()))
                .as((id, value) -> new String[] {id, value})
                .list()
                .ofMinSize(1)
                .ofMaxSize(3)
                .uniqueElements(call -> call[0]);
        Arbitrary<List<Message>> turn = Combinators.combine(userParts, WORDS, calls, WORDS)
                .as((user, said, toolCalls, result) -> {
                    List<Part> assistant = new ArrayList<>();
                    assistant.add(new Part.Text(said));
                    List<Part> results = new ArrayList<>();
                    for (String[] call : toolCalls) {
                        String arguments = "{\"q\":\"" + call[1] + "\"}";
                        assistant.add(new Part.ToolCall(call[0], "lookup", arguments, null));
                        results.add(new Part.ToolResult(
                                call[0], "lookup", List.of(new Part.Text(result + call[0])), false));
                    }
                    return List.of(
                            new Message(Role.USER, user),
                            new Message(Role.ASSISTANT, assistant),
                            new Message(Role.USER, results));
                });
        Arbitrary<List<Message>> conversation = turn.list()
                .ofMinSize(1)
                .ofMaxSize(3)
                .map(turns -> {
                    List<Message> messages = new ArrayList<>();
                    turns.forEach(messages::addAll);
                    return messages;
                });
        return Combinators.combine(
                        conversation,
                        WORDS.optional(),
                        Arbitraries.integers().between(1, 64000),
                        Arbitraries.of(0.0, 0.5, 1.0),
                        WORDS.list().ofMaxSize(2))
                .as((messages, system, maxTokens, temperature, stop) -> new ChatRequest(
                        "model-x",
                        system.map(List::of).orElse(List.of()),
                        messages,
                        List.of(new ToolDefinition(
                                "lookup",
                                "Looks things up",
                                Transcripts.parse(
                                        "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}"))),
                        null,
                        null,
                        stop,
                        maxTokens,
                        temperature,
                        null,
                        null,
                        false,
                        false,
                        null));
    }

    @Property(tries = 150)
    void aRequestWrittenAndReadBackIsUnchanged(
            @ForAll("protocols") Protocol protocol, @ForAll("requests") ChatRequest request) {
        ChatRequest expressible = protocol == Protocol.OPENAI_RESPONSES ? withoutStop(request) : request;
        ProtocolCodec codec = Bridge.codec(protocol);

        ChatRequest back = codec.decodeRequest(codec.encodeRequest(expressible, "model-x"), "model-x", false);

        assertThat(normalized(back)).isEqualTo(normalized(expressible));
    }

    private static ChatRequest withoutStop(ChatRequest r) {
        return new ChatRequest(
                r.model(),
                r.system(),
                r.messages(),
                r.tools(),
                r.toolChoice(),
                r.outputFormat(),
                List.of(),
                r.maxTokens(),
                r.temperature(),
                r.topP(),
                r.reasoning(),
                r.stream(),
                r.includeUsage(),
                r.user());
    }

    /**
     * What no protocol round-trips by design: whether usage was asked for (only Chat has the
     * switch), and the boundary between two turns of the same speaker (Anthropic merges them).
     */
    private static ChatRequest normalized(ChatRequest r) {
        List<Message> merged = new ArrayList<>();
        for (Message message : r.messages()) {
            Message last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && last.role() == message.role()) {
                List<Part> parts = new ArrayList<>(last.parts());
                parts.addAll(message.parts());
                merged.set(merged.size() - 1, new Message(message.role(), parts));
            } else {
                merged.add(message);
            }
        }
        return new ChatRequest(
                r.model(),
                r.system(),
                merged,
                r.tools(),
                r.toolChoice(),
                r.outputFormat(),
                r.stop(),
                r.maxTokens(),
                r.temperature(),
                r.topP(),
                r.reasoning(),
                false,
                false,
                r.user());
    }

    @Provide
    Arbitrary<List<StreamEvent>> streams() {
        Arbitrary<List<StreamEvent>> text = WORDS.list()
                .ofMinSize(1)
                .ofMaxSize(5)
                .map(words -> words.stream()
                        .<StreamEvent>map(StreamEvent.TextDelta::new)
                        .toList());
        Arbitrary<List<StreamEvent>> toolCalls = Combinators.combine(
                        IDS, WORDS, Arbitraries.integers().between(1, 4))
                .as((id, value, pieces) -> new Object[] {id, value, pieces})
                .list()
                .ofMinSize(0)
                .ofMaxSize(3)
                .uniqueElements(call -> call[0])
                .map(calls -> {
                    List<StreamEvent> events = new ArrayList<>();
                    for (int i = 0; i < calls.size(); i++) {
                        String arguments = "{\"q\":\"" + calls.get(i)[1] + "\"}";
                        events.add(new StreamEvent.ToolCallStarted(i, (String) calls.get(i)[0], "lookup", null));
                        int pieces = (Integer) calls.get(i)[2];
                        int step = Math.max(1, arguments.length() / pieces);
                        // fragments end on character boundaries: a JSON frame cannot carry half a surrogate pair
                        int at = 0;
                        while (at < arguments.length()) {
                            int end = Math.min(arguments.length(), at + step);
                            if (end < arguments.length() && Character.isLowSurrogate(arguments.charAt(end))) {
                                end++;
                            }
                            events.add(new StreamEvent.ToolCallArguments(i, arguments.substring(at, end)));
                            at = end;
                        }
                    }
                    return events;
                });
        return Combinators.combine(
                        text,
                        toolCalls,
                        Arbitraries.longs().between(1, 100000),
                        Arbitraries.longs().between(1, 100000))
                .as((words, calls, input, output) -> {
                    List<StreamEvent> events = new ArrayList<>();
                    events.add(new StreamEvent.Started("resp_1", "model-x", Usage.NONE));
                    events.addAll(words);
                    events.addAll(calls);
                    FinishReason reason = calls.isEmpty() ? FinishReason.STOP : FinishReason.TOOL_CALLS;
                    events.add(new StreamEvent.Finished(reason, new Usage(input, output, null, null, null)));
                    return events;
                });
    }

    @Property(tries = 150)
    void aStreamEncodedAndDecodedCarriesTheSameResponse(
            @ForAll("protocols") Protocol protocol, @ForAll("streams") List<StreamEvent> events) {
        ProtocolCodec codec = Bridge.codec(protocol);
        ProtocolCodec.StreamEncoder encoder =
                codec.streamEncoder(BridgeDetailTests.BridgeMatrixTestsRequests.streaming(), BridgeMatrixTests.NOW);
        StringBuilder wire = new StringBuilder();
        for (StreamEvent event : events) {
            wire.append(StreamTranslator.wire(encoder.encode(event)));
        }

        Transcripts.Assembled back = Transcripts.Assembled.of(Transcripts.decodeStream(protocol, wire.toString()));

        Transcripts.Assembled expected = Transcripts.Assembled.of(events);
        assertThat(back.text()).isEqualTo(expected.text());
        assertThat(back.calls()).isEqualTo(expected.calls());
        assertThat(back.finish()).isEqualTo(expected.finish());
        assertThat(back.usage().inputTokens()).isEqualTo(expected.usage().inputTokens());
        assertThat(back.usage().outputTokens()).isEqualTo(expected.usage().outputTokens());
    }
}
