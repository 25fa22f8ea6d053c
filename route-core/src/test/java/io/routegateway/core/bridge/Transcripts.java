package io.routegateway.core.bridge;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;

/** Wire transcripts under {@code src/test/resources/bridge/<protocol>/} and helpers to read them back. */
final class Transcripts {

    private Transcripts() {}

    static String text(Protocol protocol, String name) {
        String path = "/bridge/" + protocol.wire() + "/" + name;
        try (InputStream in = Transcripts.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing fixture " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static ObjectNode json(Protocol protocol, String name) {
        return (ObjectNode) parse(text(protocol, name));
    }

    static JsonNode parse(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every canonical event of a whole SSE text, decoded with {@code protocol}'s decoder. */
    static List<StreamEvent> decodeStream(Protocol protocol, String sse) {
        SseParser parser = new SseParser();
        ProtocolCodec.StreamDecoder decoder = Bridge.codec(protocol).streamDecoder();
        List<StreamEvent> events = new ArrayList<>();
        for (SseEvent event : parser.feed(sse)) {
            events.addAll(decoder.decode(event));
        }
        for (SseEvent event : parser.finish()) {
            events.addAll(decoder.decode(event));
        }
        events.addAll(decoder.end());
        return events;
    }

    /** Feeds {@code sse} to the translator in random-sized byte chunks; returns the client's wire text. */
    static String translate(StreamTranslator translator, String sse, long seed) {
        byte[] bytes = sse.getBytes(StandardCharsets.UTF_8);
        Random random = new Random(seed);
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (at < bytes.length) {
            int length = Math.min(bytes.length - at, 1 + random.nextInt(40));
            out.append(StreamTranslator.wire(translator.feed(bytes, at, length)));
            at += length;
        }
        out.append(StreamTranslator.wire(translator.finish()));
        return out.toString();
    }

    /** What a stream amounts to once put together: the test's yardstick for "same meaning". */
    record Assembled(
            String text, String reasoning, List<Call> calls, FinishReason finish, Usage usage, boolean failed) {

        record Call(String id, String name, JsonNode arguments) {}

        static Assembled of(List<StreamEvent> events) {
            StringBuilder text = new StringBuilder();
            StringBuilder reasoning = new StringBuilder();
            List<String[]> calls = new ArrayList<>();
            List<StringBuilder> arguments = new ArrayList<>();
            FinishReason finish = null;
            Usage usage = Usage.NONE;
            boolean failed = false;
            for (StreamEvent event : events) {
                if (event instanceof StreamEvent.TextDelta t) {
                    text.append(t.text());
                } else if (event instanceof StreamEvent.ReasoningDelta r) {
                    reasoning.append(r.text());
                } else if (event instanceof StreamEvent.ToolCallStarted c) {
                    while (calls.size() <= c.index()) {
                        calls.add(null);
                        arguments.add(new StringBuilder());
                    }
                    calls.set(c.index(), new String[] {c.id(), c.name()});
                } else if (event instanceof StreamEvent.ToolCallArguments a) {
                    arguments.get(a.index()).append(a.fragment());
                } else if (event instanceof StreamEvent.Finished f) {
                    finish = f.reason();
                    usage = f.usage();
                } else if (event instanceof StreamEvent.Started s) {
                    usage = usage.merge(s.usage());
                } else if (event instanceof StreamEvent.Failed) {
                    failed = true;
                }
            }
            List<Call> assembled = new ArrayList<>();
            for (int i = 0; i < calls.size(); i++) {
                String args = arguments.get(i).toString();
                assembled.add(new Call(calls.get(i)[0], calls.get(i)[1], parse(args.isEmpty() ? "{}" : args)));
            }
            return new Assembled(text.toString(), reasoning.toString(), assembled, finish, usage, failed);
        }

        static Assembled of(ChatResponse response) {
            StringBuilder text = new StringBuilder();
            StringBuilder reasoning = new StringBuilder();
            List<Call> calls = new ArrayList<>();
            for (Part part : response.content()) {
                if (part instanceof Part.Text t) {
                    text.append(t.text());
                } else if (part instanceof Part.Reasoning r && r.text() != null) {
                    reasoning.append(r.text());
                } else if (part instanceof Part.ToolCall c) {
                    calls.add(new Call(c.id(), c.name(), parse(c.arguments())));
                }
            }
            return new Assembled(
                    text.toString(), reasoning.toString(), calls, response.finishReason(), response.usage(), false);
        }
    }
}
