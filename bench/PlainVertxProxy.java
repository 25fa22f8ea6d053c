import java.util.concurrent.TimeUnit;

import io.vertx.core.AbstractVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;

/**
 * The floor of a JVM proxy on this machine: a plain one-hop HTTP/1.1 reverse proxy on Vert.x, the
 * same stack the gateway runs on, with nothing the gateway adds (no auth, routing, parsing,
 * classification, events or metrics). Shaped like the nginx baseline (bench/nginx.conf.template):
 * keep-alive clients, pooled keep-alive upstream connections, the request body and the response
 * (SSE included) piped through as they arrive. As many event loops as Quarkus gives the gateway by
 * default (two per core). The gap gateway − this proxy is what the gateway's own work costs; the gap
 * this proxy − nginx is what the JVM and Vert.x's HTTP codec cost on both hops.
 *
 * <pre>
 * java -cp "$(cat demo-upstream/target/runtime-classpath.txt)" bench/PlainVertxProxy.java LISTEN_PORT UPSTREAM_PORT [POOL]
 * </pre>
 */
public final class PlainVertxProxy extends AbstractVerticle {

    private final int listenPort;
    private final int upstreamPort;
    private final int pool;
    private HttpClient client;

    private PlainVertxProxy(int listenPort, int upstreamPort, int pool) {
        this.listenPort = listenPort;
        this.upstreamPort = upstreamPort;
        this.pool = pool;
    }

    public static void main(String[] args) throws Exception {
        int listenPort = Integer.parseInt(args[0]);
        int upstreamPort = Integer.parseInt(args[1]);
        int pool = args.length > 2 ? Integer.parseInt(args[2]) : 12_000;
        int loops = 2 * Runtime.getRuntime().availableProcessors();
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops).setPreferNativeTransport(true));
        vertx.deployVerticle(() -> new PlainVertxProxy(listenPort, upstreamPort, pool), new DeploymentOptions().setInstances(loops))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        System.out.println("plain Vert.x proxy on 127.0.0.1:" + listenPort + " -> 127.0.0.1:" + upstreamPort
                + " (" + loops + " event loops, native transport " + vertx.isNativeTransportEnabled() + ")");
    }

    @Override
    public void start(Promise<Void> started) {
        // one client per event loop, as the gateway's UpstreamClient pools per loop
        client = vertx.createHttpClient(
                new HttpClientOptions().setKeepAlive(true).setKeepAliveTimeout(3).setTcpNoDelay(true)
                        .setDecompressionSupported(false).setDefaultHost("127.0.0.1").setDefaultPort(upstreamPort),
                new PoolOptions().setHttp1MaxSize(pool).setMaxWaitQueueSize(-1));
        vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(listenPort).setTcpNoDelay(true)
                        .setReusePort(true).setAcceptBacklog(4096).setCompressionSupported(false))
                .requestHandler(this::proxy)
                .listen()
                .<Void>mapEmpty()
                .onComplete(started);
    }

    private void proxy(HttpServerRequest in) {
        in.pause();
        client.request(new RequestOptions().setMethod(in.method()).setURI(in.uri()).setIdleTimeout(120_000))
                .onFailure(e -> in.response().setStatusCode(502).end())
                .onSuccess(out -> {
                    out.headers().setAll(in.headers()).remove(HttpHeaders.HOST).remove(HttpHeaders.CONNECTION);
                    out.response()
                            .onFailure(e -> in.response().setStatusCode(502).end())
                            .onSuccess(resp -> {
                                var response = in.response().setStatusCode(resp.statusCode());
                                response.headers().setAll(resp.headers()).remove(HttpHeaders.CONNECTION);
                                if (!response.headers().contains(HttpHeaders.CONTENT_LENGTH)) {
                                    response.headers().remove(HttpHeaders.TRANSFER_ENCODING);
                                    response.setChunked(true);
                                }
                                resp.pipeTo(response);
                            });
                    if (!out.headers().contains(HttpHeaders.CONTENT_LENGTH)) {
                        out.headers().remove(HttpHeaders.TRANSFER_ENCODING);
                        out.setChunked(true);
                    }
                    in.pipeTo(out);
                });
    }
}
