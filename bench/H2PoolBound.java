import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.routegateway.demo.DemoUpstream;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.*;
import io.vertx.core.net.PfxOptions;

/**
 * How many concurrent streams one event loop's pool with the gateway's TLS client options
 * (service-common UpstreamClient before route.upstream.http2-connections-per-host: 8 HTTP/2 connections per host, multiplexing limit left to the
 * server) gets through to an upstream advertising MAX_STREAMS concurrent streams per connection;
 * the rest wait in the pool until the connect ceiling. Runs the demo upstream's TLS port in process:
 *
 * <pre>
 * java -cp "$(cat demo-upstream/target/runtime-classpath.txt):demo-upstream/target/classes" \
 *   bench/H2PoolBound.java MAX_STREAMS REQUESTS FRAMES CEILING_MS KEYSTORE.p12 PASSWORD
 * </pre>
 *
 * (FRAMES frames 100 ms apart per stream; e.g. {@code 100 1500 50 2000 ...}: 800 streams on 8
 * connections, 700 refused at the 2-s ceiling.)
 */
public final class H2PoolBound {
    public static void main(String[] args) throws Exception {
        long maxStreams = Long.parseLong(args[0]);
        int requests = Integer.parseInt(args[1]);
        int streamFrames = Integer.parseInt(args[2]); // 100 ms apart
        long ceilingMs = Long.parseLong(args[3]);
        Vertx vertx = Vertx.vertx();
        DemoUpstream upstream = new DemoUpstream(vertx);
        int port = upstream.startTls(0, new PfxOptions().setPath(args[4]).setPassword(args[5]), maxStreams)
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        // UpstreamClient's TLS client (baseOptions + TLS), trust aside; its pool per event loop
        HttpClient client = vertx.createHttpClient(new HttpClientOptions()
                        .setKeepAlive(true).setKeepAliveTimeout(60).setTcpNoDelay(true).setDecompressionSupported(false)
                        .setConnectTimeout((int) ceilingMs)
                        .setSsl(true).setUseAlpn(true).setProtocolVersion(HttpVersion.HTTP_2).setHttp2KeepAliveTimeout(60)
                        .setTrustAll(true).setVerifyHost(false),
                new PoolOptions().setHttp1MaxSize(6000).setHttp2MaxSize(8));
        String body = "{\"model\":\"m\",\"stream\":true,\"demo_stream\":{\"frames\":" + streamFrames
                + ",\"interval_ms\":100},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}";
        AtomicInteger headed = new AtomicInteger(), ok = new AtomicInteger(), failed = new AtomicInteger();
        Set<HttpConnection> connections = ConcurrentHashMap.newKeySet();
        Set<String> failures = ConcurrentHashMap.newKeySet();
        CountDownLatch done = new CountDownLatch(requests);
        vertx.runOnContext(v -> {
            for (int i = 0; i < requests; i++) {
                client.request(new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1").setPort(port)
                                .setURI("/v1/chat/completions").setConnectTimeout(ceilingMs).setIdleTimeout(180_000)
                                .putHeader("authorization", "Bearer k").putHeader("content-type", "application/json"))
                        .compose(req -> {
                            connections.add(req.connection());
                            return req.send(Buffer.buffer(body));
                        })
                        .compose(resp -> { headed.incrementAndGet(); return resp.body(); })
                        .onComplete(r -> {
                            if (r.succeeded()) ok.incrementAndGet(); else { failed.incrementAndGet(); failures.add(String.valueOf(r.cause())); }
                            done.countDown();
                        });
            }
        });
        Thread.sleep(streamFrames * 100L / 2);
        System.out.printf("max concurrent streams advertised %d, %d requests of %d ms, ceiling %d ms: "
                + "after %d ms %d streams had their response head on %d connections%n",
                maxStreams, requests, streamFrames * 100, ceilingMs, streamFrames * 50, headed.get(), connections.size());
        done.await(120, TimeUnit.SECONDS);
        System.out.printf("at the end: %d completed, %d failed %s; connections %d%n", ok.get(), failed.get(),
                failures.stream().limit(2).toList(), connections.size());
        vertx.close();
    }
}
