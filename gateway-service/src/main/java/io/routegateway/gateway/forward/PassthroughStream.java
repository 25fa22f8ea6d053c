package io.routegateway.gateway.forward;

import java.util.function.BiConsumer;

import io.routegateway.common.upstream.UpstreamStream;
import io.routegateway.core.forward.ChatStreamUsage;
import io.routegateway.core.secretmask.StreamMask;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;

/**
 * A native stream passed through as it comes, except for a Chat stream's usage frame when the
 * client did not ask for usage (the upstream was asked, to settle the tokens).
 */
final class PassthroughStream extends StreamAnswer {

    /** Null when every chunk goes out as it came. */
    private final ChatStreamUsage.Filter usageFrames;

    PassthroughStream(
            UpstreamStream stream,
            HttpServerResponse response,
            StreamMask secrets,
            boolean hidesUsageFrame,
            BiConsumer<StreamAnswer, End> ended) {
        super(stream, response, secrets, ended);
        this.usageFrames = hidesUsageFrame ? new ChatStreamUsage.Filter() : null;
    }

    /** @param bytes the chunk's bytes, the stream's own copy (read, never changed) */
    @Override
    Buffer frames(Buffer chunk, byte[] bytes) {
        if (usageFrames == null) {
            return chunk;
        }
        byte[] out = usageFrames.feed(bytes);
        // the common case, a chunk of whole frames without the usage frame: it goes out as it came
        return out == bytes ? chunk : Buffer.buffer(out);
    }

    @Override
    Buffer tail() {
        return usageFrames == null ? null : Buffer.buffer(usageFrames.finish());
    }
}
