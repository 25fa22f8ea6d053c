package io.routegateway.gateway.forward;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.impl.ConnectionBase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Frames written in one event-loop turn outside the client connection's own read (as a relayed
 * frame is, while the upstream connection reads) leave in one flush, and nothing is held back.
 */
class ClientFlushesTests {

    private static final int FRAMES = 50;

    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void closeVertx() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** Counts the flushes that reach the socket: it sits between the socket and everything else. */
    private static final class SocketFlushes extends ChannelOutboundHandlerAdapter {
        final AtomicInteger count = new AtomicInteger();

        @Override
        public void flush(ChannelHandlerContext ctx) {
            count.incrementAndGet();
            ctx.flush();
        }
    }

    private record Served(String body, int flushes, boolean consolidated, List<String> pipeline) {}

    private Served serve(boolean consolidate, HttpVersion version) throws Exception {
        SocketFlushes flushes = new SocketFlushes();
        AtomicBoolean consolidated = new AtomicBoolean();
        var pipelineNames = new java.util.concurrent.atomic.AtomicReference<List<String>>();
        HttpServer server = vertx.createHttpServer(
                        new HttpServerOptions().setPort(0).setHost("127.0.0.1"))
                .requestHandler(request -> {
                    if (consolidate) {
                        consolidated.set(ClientFlushes.consolidate(request));
                        // a second stream on the same connection installs nothing more
                        ClientFlushes.consolidate(request);
                    }
                    ChannelPipeline pipeline = pipeline(request);
                    if (pipeline != null) {
                        pipeline.addFirst("test-socket-flushes", flushes);
                        pipelineNames.set(pipeline.names());
                    }
                    request.response().setChunked(true);
                    // a later turn of the loop, not the request's own read: as a relayed frame is written
                    vertx.setTimer(1, t -> {
                        for (int i = 0; i < FRAMES; i++) {
                            request.response().write("data: " + i + "\n\n");
                        }
                        request.response().end();
                    });
                })
                .listen()
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        try {
            var client = vertx.createHttpClient(
                    new HttpClientOptions().setProtocolVersion(version).setHttp2ClearTextUpgrade(false));
            Buffer body = client.request(new RequestOptions()
                            .setMethod(HttpMethod.GET)
                            .setHost("127.0.0.1")
                            .setPort(server.actualPort())
                            .setURI("/stream"))
                    .compose(request -> request.send())
                    .compose(response -> response.body())
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
            return new Served(body.toString(), flushes.count.get(), consolidated.get(), pipelineNames.get());
        } finally {
            server.close();
        }
    }

    private static ChannelPipeline pipeline(HttpServerRequest request) {
        return request.connection() instanceof ConnectionBase connection
                ? connection.channelHandlerContext().pipeline()
                : null;
    }

    private static String frames() {
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < FRAMES; i++) {
            expected.append("data: ").append(i).append("\n\n");
        }
        return expected.toString();
    }

    @Test
    void framesWrittenInOneTurnLeaveInOneFlushAndAllArriveInOrder() throws Exception {
        Served served = serve(true, HttpVersion.HTTP_1_1);

        assertThat(served.consolidated()).isTrue();
        assertThat(served.body()).isEqualTo(frames());
        // head, 50 frames and the end in one turn: one flush (Vert.x alone flushes every write)
        assertThat(served.flushes()).isEqualTo(1);
        assertThat(served.pipeline()).containsOnlyOnce(ClientFlushes.HANDLER_NAME);
    }

    @Test
    void withoutItEveryFrameIsItsOwnFlush() throws Exception {
        Served served = serve(false, HttpVersion.HTTP_1_1);

        assertThat(served.body()).isEqualTo(frames());
        assertThat(served.flushes()).isGreaterThanOrEqualTo(FRAMES);
    }

    @Test
    void anHttp2ConnectionIsLeftAsItIs() throws Exception {
        Served served = serve(true, HttpVersion.HTTP_2);

        assertThat(served.consolidated()).isFalse();
        assertThat(served.body()).isEqualTo(frames());
    }
}
