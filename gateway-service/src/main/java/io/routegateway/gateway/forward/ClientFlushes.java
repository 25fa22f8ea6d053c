package io.routegateway.gateway.forward;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * Frames that arrive together leave together. Vert.x flushes every write to a client connection
 * that is not itself reading, and a relayed frame is written while the <em>upstream</em>
 * connection reads: each chunk of an upstream read became its own {@code writev} and its own
 * wake-up of the client. With Netty's {@link FlushConsolidationHandler} in the client
 * connection's pipeline the flushes of one event-loop turn become one, run right after that turn's
 * reads (so a lone frame waits for nothing but the turn it arrived in), the way a plain proxy
 * writes what one read brought.
 */
final class ClientFlushes {

    static final String HANDLER_NAME = "route-flush-consolidation";
    /** Netty's default: a flush goes through at the latest after this many held ones. */
    private static final int FLUSH_AT_LATEST_AFTER = FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES;

    private ClientFlushes() {}

    /**
     * Installs the consolidation once per HTTP/1.x client connection (it stays for the
     * connection's life, kept-alive requests included). HTTP/2 connections are left as they are:
     * their frames are multiplexed streams with flow control of their own.
     *
     * @return whether the connection consolidates its flushes now
     */
    static boolean consolidate(HttpServerRequest request) {
        if (request.version() == HttpVersion.HTTP_2 || !(request.connection() instanceof ConnectionBase connection)) {
            return false;
        }
        ChannelPipeline pipeline = connection.channelHandlerContext().pipeline();
        if (pipeline.get(HANDLER_NAME) == null) {
            // first in the pipeline: it sees the socket's own reads, and every flush passes it
            pipeline.addFirst(HANDLER_NAME, new FlushConsolidationHandler(FLUSH_AT_LATEST_AFTER, true));
        }
        return true;
    }
}
