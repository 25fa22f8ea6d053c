package io.routegateway.core.bridge;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.model.Protocol;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a protocol bridge adds to one request on the gateway's CPU, per pair (client → upstream):
 * converting the client's request ({@code request-tools.json}), converting a buffered answer
 * ({@code response-text.json}), translating a whole stream ({@code stream-text.sse}, chunk by chunk
 * as the gateway feeds it) and translating only its first frame (what a bridge adds to the time to
 * first byte). A native request does none of this: the figures are the bridge's cost over the native
 * path's. The wire transcripts are the bridge tests' ({@code src/test/resources/bridge}).
 *
 * <p>Run (from the repository root): {@code bench/jmh.sh io.routegateway.core.bridge.BridgeBenchmark}
 * or the class's {@link #main} on the test classpath; {@code -p pair=anthropic_messages->gemini}
 * picks other pairs (the Gemini request transcript has stop sequences, which a Responses upstream
 * cannot express).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BridgeBenchmark {

    static final Instant NOW = Instant.parse("2026-09-02T12:00:00Z");

    @Param({
        "anthropic_messages->openai_chat",
        "openai_chat->anthropic_messages",
        "openai_responses->gemini",
        "gemini->anthropic_messages"
    })
    String pair;

    Bridge bridge;
    JsonNode request;
    String pathModel;
    ChatRequest canonical;
    JsonNode response;
    List<byte[]> chunks;

    @Setup
    public void setUp() {
        String[] sides = pair.split("->");
        Protocol client = Protocol.fromWire(sides[0]);
        Protocol upstream = Protocol.fromWire(sides[1]);
        bridge = Bridge.between(client, upstream);
        request = Transcripts.json(client, "request-tools.json");
        pathModel = client == Protocol.GEMINI ? "m" : null;
        canonical = ((RequestConversion.Converted) bridge.request(request, pathModel, true, "m")).request();
        response = Transcripts.json(upstream, "response-text.json");
        // the stream as a gateway reads it off the wire: one chunk per event
        chunks = new java.util.ArrayList<>();
        for (String frame : Transcripts.text(upstream, "stream-text.sse").split("\n\n")) {
            if (!frame.isBlank()) {
                chunks.add((frame + "\n\n").getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    @Benchmark
    public Object convertRequest() {
        return bridge.request(request, pathModel, true, "m");
    }

    @Benchmark
    public Object convertResponse() {
        return bridge.response(response, NOW);
    }

    @Benchmark
    public int translateStream() {
        StreamTranslator translator = bridge.stream(canonical, NOW);
        int bytes = 0;
        for (byte[] chunk : chunks) {
            bytes += StreamTranslator.wire(translator.feed(chunk)).length();
        }
        return bytes + StreamTranslator.wire(translator.finish()).length();
    }

    @Benchmark
    public String translateFirstFrame() {
        return StreamTranslator.wire(bridge.stream(canonical, NOW).feed(chunks.get(0)));
    }

    public static void main(String[] args) throws Exception {
        String[] jmhArgs = args.length > 0
                ? args
                : new String[] {
                    BridgeBenchmark.class.getName(), "-wi", "3", "-i", "5", "-w", "1s", "-r", "1s", "-f", "1"
                };
        org.openjdk.jmh.Main.main(jmhArgs);
    }
}
