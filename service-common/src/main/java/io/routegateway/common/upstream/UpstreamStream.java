package io.routegateway.common.upstream;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import io.routegateway.core.failure.StreamCompletion;
import io.routegateway.core.failure.UpstreamOutcome;
import io.routegateway.core.forward.StreamOpening;
import io.routegateway.core.telemetry.ResponseModel;
import io.routegateway.core.usage.TokenUsage;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;

/**
 * A 2xx upstream stream whose first data chunk has arrived, held paused until the caller commits to
 * passing it through ({@link #start}) or fails over ({@link #cancel}). SSE comments and blank
 * lines before the first data ({@code : keep-alive}) do not end the failover window ({@link
 * StreamOpening}): they are held and become the start of the first chunk. Every chunk, the first
 * included, is fed to the same {@link StreamCompletion} scan the buffered path uses, so both paths
 * reach the same verdict on truncation. The read-gap timeout keeps running between chunks, the
 * held comments' included (but not while the caller has paused reading).
 *
 * <p>Not thread-safe: every method must run on the Vert.x context the exchange was started on (the
 * caller's event loop), where all upstream callbacks arrive too.
 */
public final class UpstreamStream {

    /** Receives a chunk of the stream after the first one. */
    @FunctionalInterface
    public interface ChunkHandler {

        /**
         * @param chunk the chunk as it arrived, to write on as it is
         * @param bytes its bytes, the copy the stream made for its own scan and kept text: read
         *     them, never change them (the stream keeps them), so a caller needs no copy of its own
         */
        void accept(Buffer chunk, byte[] bytes);
    }

    private final HttpClientRequest request;
    private final HttpClientResponse response;
    private final UpstreamTimeouts timeouts;
    private final boolean modelTest;
    private final long headNanos;
    private final KeptText kept = new KeptText();
    private final ReadGapWatch watch;

    private Buffer firstChunk;
    private byte[] firstChunkBytes;
    private String firstChunkText;
    private StreamCompletion.Scan scan = StreamCompletion.scan();
    private StreamOpening opening = StreamOpening.start();
    /** Comments and blank lines that arrived before the first data, null while there are none. */
    private Buffer heldOpening;

    private ChunkHandler chunkHandler;
    private Consumer<UpstreamOutcome> endHandler;
    private Consumer<UpstreamOutcome> endBeforeFirstChunk;
    private String earlyError;
    private boolean endedBeforeStart;
    private boolean finished;

    UpstreamStream(
            Vertx vertx,
            HttpClientRequest request,
            HttpClientResponse response,
            UpstreamTimeouts timeouts,
            boolean modelTest,
            long headNanos) {
        this.request = request;
        this.response = response;
        this.timeouts = timeouts;
        this.modelTest = modelTest;
        this.headNanos = headNanos;
        this.watch = new ReadGapWatch(vertx, timeouts.readGap().toMillis(), this::stalled);
    }

    public int status() {
        return response.statusCode();
    }

    public MultiMap headers() {
        return response.headers();
    }

    /**
     * The first chunk that carries data (any SSE comments and blank lines before it at its start),
     * never null.
     */
    public Buffer firstChunk() {
        return firstChunk;
    }

    /** The first chunk's bytes; read-only, as {@link ChunkHandler#accept}'s. */
    public byte[] firstChunkBytes() {
        return firstChunkBytes;
    }

    /** The first chunk as UTF-8 text (a multi-byte character split at its end is replaced). */
    public String firstChunkText() {
        return firstChunkText;
    }

    /** Span from sending the request to the response head. */
    public long headNanos() {
        return headNanos;
    }

    /**
     * The usage the stream has carried so far, from what is kept: also a long stream's, whose kept
     * tail starts inside a frame that ends with the usage.
     */
    public TokenUsage usageSoFar() {
        return kept.usage();
    }

    /** The model the upstream says it answered with, from what is kept ({@link ResponseModel}); null when none. */
    public String responseModel() {
        return ResponseModel.of(kept.text());
    }

    /** Whether a terminal marker has been seen so far. */
    public boolean terminalMarkerSeen() {
        return scan.completed();
    }

    /**
     * Lets the rest of the stream flow: {@code onChunk} gets every chunk after the first one, then
     * {@code onEnd} gets the final outcome exactly once (normal end, transport error, or read-gap
     * timeout), unless {@link #cancel} was called first.
     */
    public void start(Consumer<Buffer> onChunk, Consumer<UpstreamOutcome> onEnd) {
        start((chunk, bytes) -> onChunk.accept(chunk), onEnd);
    }

    /** As {@link #start(Consumer, Consumer)}, with each chunk's bytes as well. */
    public void start(ChunkHandler onChunk, Consumer<UpstreamOutcome> onEnd) {
        this.chunkHandler = onChunk;
        this.endHandler = onEnd;
        if (finished) {
            return;
        }
        if (earlyError != null || endedBeforeStart) {
            finish(earlyError);
            return;
        }
        watch.resume();
        response.resume();
    }

    /** Stops reading from the upstream (backpressure from a slow client); the read gap stops too. */
    public void pause() {
        if (!finished) {
            watch.suspend();
            response.pause();
        }
    }

    public void resume() {
        if (!finished && chunkHandler != null) {
            watch.resume();
            response.resume();
        }
    }

    /**
     * Abandons the exchange (fail over before committing, or the client went away): the upstream
     * request is reset and no handler is called any more.
     */
    public void cancel() {
        if (!finished) {
            finished = true;
            watch.stop();
            request.reset();
        }
    }

    /** Wires the response; called once the head has arrived. */
    void attach(Consumer<UpstreamStream> onFirstChunk, Consumer<UpstreamOutcome> onEndBeforeFirstChunk) {
        this.endBeforeFirstChunk = onEndBeforeFirstChunk;
        response.handler(chunk -> {
            if (finished || chunk.length() == 0) {
                return;
            }
            watch.touch();
            // one copy per chunk: the marker scan reads the bytes, the kept text holds them and
            // decodes once per stream; only the first chunk is decoded now (its failure check)
            byte[] bytes = chunk.getBytes();
            scan = scan.feed(bytes, 0, bytes.length);
            kept.append(bytes);
            if (firstChunk == null) {
                opening = opening.feed(bytes, 0, bytes.length);
                if (!opening.dataBegun()) {
                    heldOpening = (heldOpening == null ? Buffer.buffer() : heldOpening).appendBuffer(chunk);
                    return;
                }
                Buffer first = chunk;
                if (heldOpening != null) {
                    first = heldOpening.appendBuffer(chunk);
                    bytes = first.getBytes();
                    heldOpening = null;
                }
                firstChunk = first;
                firstChunkBytes = bytes;
                firstChunkText = new String(bytes, StandardCharsets.UTF_8);
                response.pause();
                watch.suspend();
                onFirstChunk.accept(this);
                return;
            }
            chunkHandler.accept(chunk, bytes);
        });
        response.endHandler(ignored -> {
            if (firstChunk != null && chunkHandler == null) {
                endedBeforeStart = true;
                return;
            }
            finish(null);
        });
        response.exceptionHandler(failure -> fail(UpstreamClient.describe(failure, timeouts, true, null)));
    }

    private void stalled() {
        fail(timeouts.readGapTimeoutMessage());
        request.reset();
    }

    private void fail(String message) {
        if (firstChunk != null && chunkHandler == null) {
            if (earlyError == null) {
                earlyError = message;
            }
            return;
        }
        finish(message);
    }

    private void finish(String transportError) {
        if (finished) {
            return;
        }
        finished = true;
        watch.stop();
        // a stream that ended inside its opening comments received nothing: no data, no evidence
        String body = opening.dataBegun() ? kept.text() : "";
        UpstreamOutcome outcome = UpstreamOutcome.passthroughStream(
                response.statusCode(), body, scan.completed(), transportError, modelTest);
        if (firstChunk == null) {
            endBeforeFirstChunk.accept(outcome);
        } else {
            endHandler.accept(outcome);
        }
    }
}
