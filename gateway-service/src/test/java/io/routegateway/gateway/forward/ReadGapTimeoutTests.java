package io.routegateway.gateway.forward;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.failure.StreamCompletion;
import io.routegateway.gateway.config.GatewayConfig;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream;
import io.routegateway.gateway.support.MockUpstream.Behaviour;
import io.routegateway.gateway.support.Pool;
import io.vertx.core.http.HttpServerResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.ok;
import static io.routegateway.gateway.support.MockUpstream.sse;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The read timeout bounds the gap between two reads, reset after each read; there is no total
 * deadline. An upstream that keeps sending, each piece well inside the gap, is read to the end
 * however long the whole answer takes (here over two gaps); one silence longer than the gap ends
 * the attempt as a transport failure naming the read timeout, even though the upstream would
 * have gone on afterwards.
 *
 * <p>The spacing is a quarter of the configured gap and the long silence three gaps: a gap that
 * did not reset, or a silence that did not end the attempt, fails these tests with a margin of
 * seconds either way.
 */
@QuarkusTest
class ReadGapTimeoutTests extends GatewayTestBase {

    /** Pieces of an answer: at a quarter of the gap apart, nine of them last over two gaps. */
    private static final int PIECES = 9;

    @Inject
    GatewayConfig config;

    private String a;
    private String b;
    private String keyId;
    private Duration gap;
    private long spacingMillis;

    @BeforeEach
    void names() {
        a = Pool.uid("a");
        b = Pool.uid("b");
        keyId = Pool.uid("k");
        gap = config.upstream().readGapTimeout();
        spacingMillis = gap.toMillis() / 4;
    }

    /** {@code a} (priority 0) and {@code b} (priority 1) in one group; {@code a} does not retry. */
    private void pool() {
        String group = Pool.uid("g");
        install(
                List.of(
                        Pool.credential(a)
                                .serves("m")
                                .groups(group)
                                .priority(0)
                                .policy(0, 10, true, 10)
                                .build(box),
                        Pool.credential(b).serves("m").groups(group).priority(1).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
    }

    private HttpResponse<String> streamChat() {
        return post(
                "/v1/chat/completions",
                keyId,
                "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
    }

    /** A chat stream of {@link #PIECES} frames: deltas "0".."6", the finish frame with usage, [DONE]. */
    private static List<String> chatFrames() {
        List<String> frames = new ArrayList<>();
        for (int i = 0; i < PIECES - 2; i++) {
            frames.add("data: {\"choices\":[{\"delta\":{\"content\":\"" + i + "\"}}]}\n\n");
        }
        frames.add("data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":5,"
                + "\"completion_tokens\":7}}\n\n");
        frames.add("data: [DONE]\n\n");
        return frames;
    }

    /** {@link MockUpstream#CHAT_OK} cut into {@link #PIECES} pieces. */
    private static List<String> chatBodyPieces() {
        String body = MockUpstream.CHAT_OK;
        List<String> pieces = new ArrayList<>();
        int size = (body.length() + PIECES - 1) / PIECES;
        for (int start = 0; start < body.length(); start += size) {
            pieces.add(body.substring(start, Math.min(body.length(), start + size)));
        }
        return pieces;
    }

    /**
     * Writes a 200 JSON answer piece by piece, {@code spacingMillis} apart, and a silence of {@code
     * silenceMillis} before piece {@code silenceBefore} (-1: none). Stops writing once the gateway
     * has dropped the exchange.
     */
    private static Behaviour pacedJson(List<String> pieces, long spacingMillis, int silenceBefore, long silenceMillis) {
        return (request, body, number) -> {
            HttpServerResponse response = request.response();
            response.setChunked(true).putHeader("content-type", "application/json");
            writePieces(response, pieces, 0, spacingMillis, silenceBefore, silenceMillis);
        };
    }

    private static void writePieces(
            HttpServerResponse response,
            List<String> pieces,
            int index,
            long spacingMillis,
            int silenceBefore,
            long silenceMillis) {
        if (response.closed()) {
            return;
        }
        if (index == pieces.size()) {
            response.end();
            return;
        }
        response.write(pieces.get(index));
        long next = index + 1 == silenceBefore ? silenceMillis : spacingMillis;
        MockUpstream.get()
                .vertx()
                .setTimer(
                        next,
                        id -> writePieces(response, pieces, index + 1, spacingMillis, silenceBefore, silenceMillis));
    }

    /**
     * A stream whose frames arrive a quarter gap apart, after one silence of three gaps before frame
     * 2; {@code upstreamReset} completes when the gateway drops the exchange.
     */
    private Behaviour streamWithOneLongSilence(CompletableFuture<Void> upstreamReset) {
        List<String> frames = chatFrames();
        return (request, body, number) -> {
            HttpServerResponse response = request.response();
            response.closeHandler(closed -> upstreamReset.complete(null));
            response.setChunked(true).putHeader("content-type", "text/event-stream");
            writePieces(response, frames, 0, spacingMillis, 2, 3 * gap.toMillis());
        };
    }

    private void assertNoFailureRecordedFor(String credentialId) {
        CredentialSnapshot local = views.pool().credential(credentialId).orElseThrow();
        assertThat(local.account().transientFailureCount()).isZero();
        assertThat(local.account().cooldownUntil()).isNull();
        assertThat(local.models()).isEmpty();
    }

    @Test
    void aStreamLastingLongerThanOneReadGapIsRelayedWholeWhileEachGapIsShorter() {
        assertThat(spacingMillis * PIECES)
                .as("the stream lasts over two read gaps")
                .isGreaterThan(2 * gap.toMillis());
        upstream.on(a, sse(chatFrames(), -1, spacingMillis));
        pool();

        HttpResponse<String> response = streamChat();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-length"))
                .as("passed through")
                .isEmpty();
        assertThat(response.body()).as("every frame, in order").isEqualTo(String.join("", chatFrames()));
        assertThat(upstream.count(b)).isZero();
        RequestCompleted record = usage(a, list -> !list.isEmpty()).get(0);
        assertThat(record.success()).isTrue();
        assertThat(record.reasonCode()).isNull();
        assertThat(record.stream()).isTrue();
        assertThat(record.outputTokens()).isEqualTo(7L);
        assertNoFailureRecordedFor(a);
    }

    @Test
    void aBufferedAnswerLastingLongerThanOneReadGapIsReadWholeWhileEachGapIsShorter() {
        List<String> pieces = chatBodyPieces();
        assertThat(spacingMillis * pieces.size())
                .as("the answer lasts over two read gaps")
                .isGreaterThan(2 * gap.toMillis());
        upstream.on(a, pacedJson(pieces, spacingMillis, -1, 0));
        pool();

        HttpResponse<String> response = post("/v1/chat/completions", keyId, chat("m"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(MockUpstream.CHAT_OK);
        assertThat(upstream.count(b)).isZero();
        RequestCompleted record = usage(a, list -> !list.isEmpty()).get(0);
        assertThat(record.success()).isTrue();
        assertThat(record.reasonCode()).isNull();
        assertThat(record.inputTokens()).isEqualTo(11L);
        assertThat(record.outputTokens()).isEqualTo(7L);
        assertNoFailureRecordedFor(a);
    }

    @Test
    void oneSilenceLongerThanTheReadGapInABufferedAnswerIsAReadTimeoutAndFailsOver() {
        // the body has begun: this is the read gap between two body reads, not a stall before the head
        upstream.on(a, pacedJson(chatBodyPieces(), spacingMillis, 2, 3 * gap.toMillis()));
        upstream.on(b, ok());
        pool();

        HttpResponse<String> response = post("/v1/chat/completions", keyId, chat("m"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(MockUpstream.CHAT_OK);
        assertThat(upstream.count(b)).as("failed over").isEqualTo(1);
        assertReadTimeoutRecordedFor(a);
    }

    /**
     * Past the first chunk a stream cannot fail over: the read gap ends it where the silence began,
     * and the spec records a stream that ended without its terminal event as a truncation
     * ({@code semantic_response_transient}, the buffered path's disconnect text), not as {@code
     * transport}. What shows the read gap ended it is that the upstream, which would have resumed
     * after three gaps, had its exchange reset and the client never got the later frames.
     */
    @Test
    void oneSilenceLongerThanTheReadGapEndsAPassedThroughStreamWhereTheSilenceBegan() {
        CompletableFuture<Void> upstreamReset = new CompletableFuture<>();
        upstream.on(a, streamWithOneLongSilence(upstreamReset));
        upstream.on(b, sse(chatFrames(), -1, 5));
        pool();

        HttpResponse<String> response = streamChat();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body())
                .as("the frames before the silence reached the client; the stream ended there")
                .isEqualTo(chatFrames().get(0) + chatFrames().get(1));
        assertThat(upstreamReset)
                .as("the gateway dropped the silent upstream exchange")
                .succeedsWithin(Duration.ofSeconds(10));
        assertThat(upstream.count(b))
                .as("never retried after bytes reached the client")
                .isZero();
        assertThat(outcomes(a, list -> !list.isEmpty()))
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.TransientFailureRecorded.class, failure -> {
                    assertThat(failure.kind()).isEqualTo("semantic_response_transient");
                    assertThat(failure.message()).isEqualTo(StreamCompletion.DISCONNECTED_MESSAGE);
                });
        RequestCompleted record = usage(a, list -> !list.isEmpty()).get(0);
        assertThat(record.success()).isFalse();
        assertThat(record.stream()).isTrue();
        assertThat(record.reasonCode()).isEqualTo("semantic_response_transient");
    }

    private void assertReadTimeoutRecordedFor(String credentialId) {
        assertThat(outcomes(credentialId, list -> !list.isEmpty()))
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.TransientFailureRecorded.class, failure -> {
                    assertThat(failure.kind()).isEqualTo("transport");
                    assertThat(failure.status()).isEqualTo(200);
                    assertThat(failure.message())
                            .startsWith("read timeout")
                            .contains("gateway.upstream.read-gap-timeout=" + human(gap));
                });
    }

    /** A duration as the failure message writes it: whole seconds as "2s", otherwise milliseconds. */
    private static String human(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? (millis / 1000) + "s" : millis + "ms";
    }
}
