package io.routegateway.common.upstream;

import java.util.function.BiConsumer;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;

/**
 * Reads a whole response body under the read-gap ceiling and a size cap, handing over the body and
 * the transport error (null when it was read to the end) exactly once; a body that passes the cap is
 * handed over as null (the exchange is reset, what was read is dropped). Runs on the exchange's
 * Vert.x context.
 */
final class BufferedBody {

    private final HttpClientRequest request;
    private final UpstreamTimeouts timeouts;
    private final BiConsumer<Buffer, String> onDone;
    private final long maxBytes;
    private Buffer body = Buffer.buffer();
    private final ReadGapWatch watch;
    private boolean done;

    private BufferedBody(
            Vertx vertx,
            HttpClientRequest request,
            UpstreamTimeouts timeouts,
            long maxBytes,
            BiConsumer<Buffer, String> onDone) {
        this.request = request;
        this.maxBytes = maxBytes;
        this.timeouts = timeouts;
        this.onDone = onDone;
        this.watch = new ReadGapWatch(vertx, timeouts.readGap().toMillis(), this::stalled);
    }

    static void read(
            Vertx vertx,
            HttpClientRequest request,
            HttpClientResponse response,
            UpstreamTimeouts timeouts,
            long maxBytes,
            BiConsumer<Buffer, String> onDone) {
        BufferedBody reader = new BufferedBody(vertx, request, timeouts, maxBytes, onDone);
        response.handler(reader::chunk);
        response.endHandler(ignored -> reader.finish(null));
        response.exceptionHandler(failure -> reader.finish(UpstreamClient.describe(failure, timeouts, true, null)));
    }

    private void chunk(Buffer chunk) {
        if (done) {
            return;
        }
        watch.touch();
        if (chunk.length() > maxBytes - body.length()) {
            body = null;
            finish(null);
            request.reset();
            return;
        }
        body.appendBuffer(chunk);
    }

    private void stalled() {
        finish(timeouts.readGapTimeoutMessage());
        request.reset();
    }

    private void finish(String transportError) {
        if (done) {
            return;
        }
        done = true;
        watch.stop();
        onDone.accept(body, transportError);
    }
}
