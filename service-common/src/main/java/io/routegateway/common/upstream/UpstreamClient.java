package io.routegateway.common.upstream;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.EventExecutor;
import io.routegateway.core.failure.ClientEcho;
import io.routegateway.core.failure.StreamCompletion;
import io.routegateway.core.failure.UpstreamOutcome;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.forward.StreamingPassthrough;
import io.routegateway.core.hostpolicy.HostPolicy;
import io.routegateway.core.upstream.UpstreamRequest;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.tracing.TracingPolicy;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The one outbound HTTP client for upstream LLM APIs, shared by gateway forwarding and recovery
 * model tests: pooled keep-alive connections, HTTP/2 over TLS when the upstream offers it (ALPN,
 * falling back to HTTP/1.1), HTTP/1.1 over cleartext.
 *
 * <p>Each call carries its own {@link UpstreamTimeouts}: a connect timeout (bounding pool wait, TCP
 * connect and TLS handshake together) and a read-gap timeout (the longest silence between two
 * reads, reset by every byte); there is no total deadline. A
 * timeout, a refused connection or a broken body never fails the returned {@link Uni}: it becomes
 * the {@code transportError} of the outcome, whose message names which ceiling fired and its
 * setting. The client does not judge answers: a response carries its {@code UpstreamOutcome},
 * headers and client echo, and its verdict is route-core's {@code AttemptVerdict}, which also
 * needs whose credential sent the request.
 *
 * <p>Where the secret may go: every request resolves the upstream's host once ({@link
 * UpstreamResolver}), judges the address with route-core's {@link HostPolicy#checkResolved} (the
 * rules the admin API applies to the {@code base_url} when it is written, {@code
 * route.upstream-hosts.*}) and connects to exactly that address ({@link RequestOptions#setServer}),
 * so a name that resolves to an allowed address at write time and to a link-local or metadata
 * address later (DNS rebinding) is never connected to. The host name stays the request's authority:
 * the {@code Host} header, TLS SNI and certificate verification all use it. A refused address sends
 * nothing and comes back as a transport failure ({@value #ADDRESS_REFUSED} and the reason), the
 * credential's like a refused connection; it is logged (host, address and reason) and fired as an
 * {@link AddressRefused} event for the services' metrics.
 *
 * <p>Callbacks run on the caller's Vert.x context when there is one (the gateway's event loop),
 * otherwise on an event loop of the client. Request headers (credentials included) are never logged.
 */
@Singleton
public class UpstreamClient {

    private static final Logger LOG = Logger.getLogger(UpstreamClient.class);

    /**
     * HTTP/1.1 connections per upstream host by default (each carries one request at a time, so a
     * long stream holds one for its whole length): {@code route.upstream.http1-connections-per-host}.
     * A request beyond it waits in the pool (within its connect ceiling), so the pool bounds the
     * concurrent streams a replica relays to one cleartext host; each connection is one file
     * descriptor. Shared out evenly over the event loops' pools (the server spreads client
     * connections over the loops round-robin).
     */
    public static final int HTTP1_CONNECTIONS_PER_HOST = 4096;
    /**
     * HTTP/2 connections per TLS upstream host by default ({@code
     * route.upstream.http2-connections-per-host}), shared out over the event loops' pools like the
     * HTTP/1.1 bound. Each multiplexes as many streams as the upstream allows per connection (its
     * {@code SETTINGS_MAX_CONCURRENT_STREAMS}, often 100), so this bound times that limit is how many
     * concurrent streams a replica relays to one TLS host; further ones wait in the pool within
     * their connect ceiling. 128 × 100 = 12,800.
     */
    public static final int HTTP2_CONNECTIONS_PER_HOST = 128;
    /** Idle pooled connections are closed after this many seconds. */
    public static final int KEEP_ALIVE_SECONDS = 60;

    private final Vertx vertx;
    /**
     * One client pair per connect ceiling (in practice one per service: its configured value) and
     * per calling event loop. Vert.x's HTTP/1.1 pool hands a pooled connection to any waiter
     * whatever event loop the connection lives on, so with one shared pool about half of the
     * streams had every upstream chunk handed from one event loop to the other (a task and a
     * wake-up per chunk); one pool per event loop keeps a stream's upstream reads on its own loop.
     * The pool's selection also scans every connection of the pool on each request, and does so
     * serially for all loops: a pool per loop scans its share only, without the others waiting.
     */
    private final Map<ClientKey, Clients> clientsByKey = new ConcurrentHashMap<>();

    /** {@code loop} is the calling event loop's thread, or null for a caller on no event loop. */
    private record ClientKey(Duration connectCeiling, Thread loop) {}

    /**
     * The cleartext and TLS clients for one connect ceiling. The ceiling bounds the whole way to a
     * usable connection: the request's pool wait, the TCP connect and the TLS handshake (Vert.x's
     * own handshake default of 10 s would otherwise cut a longer ceiling short, or outlive a
     * shorter one in the pool).
     */
    private record Clients(HttpClient cleartext, HttpClient tls) {

        void close() {
            cleartext.close();
            tls.close();
        }
    }

    /** The transport error of a connection the host policy refused; the reason follows it. */
    public static final String ADDRESS_REFUSED = "upstream address refused by the host policy";

    private final int http1ConnectionsPerHost;
    private final int http2ConnectionsPerHost;
    private final int eventLoops;
    private final HostPolicy hostPolicy;
    private final UpstreamResolver resolver;
    private final Consumer<AddressRefused> refusals;

    UpstreamClient(Vertx vertx) {
        this(vertx, HostPolicy.DEFAULT, UpstreamResolver.of(vertx), refused -> {});
    }

    UpstreamClient(Vertx vertx, int http1ConnectionsPerHost, int http2ConnectionsPerHost) {
        this(
                vertx,
                http1ConnectionsPerHost,
                http2ConnectionsPerHost,
                HostPolicy.DEFAULT,
                UpstreamResolver.of(vertx),
                refused -> {});
    }

    UpstreamClient(Vertx vertx, HostPolicy hostPolicy, UpstreamResolver resolver, Consumer<AddressRefused> refusals) {
        this(vertx, HTTP1_CONNECTIONS_PER_HOST, HTTP2_CONNECTIONS_PER_HOST, hostPolicy, resolver, refusals);
    }

    @Inject
    UpstreamClient(
            Vertx vertx,
            @ConfigProperty(name = "route.upstream.http1-connections-per-host", defaultValue = "4096")
                    int http1ConnectionsPerHost,
            @ConfigProperty(name = "route.upstream.http2-connections-per-host", defaultValue = "128")
                    int http2ConnectionsPerHost,
            UpstreamHostConfig hosts,
            UpstreamResolver resolver,
            Event<AddressRefused> refusals) {
        this(
                vertx,
                http1ConnectionsPerHost,
                http2ConnectionsPerHost,
                UpstreamHostConfig.policy(hosts),
                resolver,
                refusals::fire);
    }

    UpstreamClient(
            Vertx vertx,
            int http1ConnectionsPerHost,
            int http2ConnectionsPerHost,
            HostPolicy hostPolicy,
            UpstreamResolver resolver,
            Consumer<AddressRefused> refusals) {
        if (http1ConnectionsPerHost < 1) {
            throw new IllegalArgumentException("route.upstream.http1-connections-per-host must be at least 1");
        }
        if (http2ConnectionsPerHost < 1) {
            throw new IllegalArgumentException("route.upstream.http2-connections-per-host must be at least 1");
        }
        this.vertx = vertx;
        this.http1ConnectionsPerHost = http1ConnectionsPerHost;
        this.http2ConnectionsPerHost = http2ConnectionsPerHost;
        this.eventLoops = eventLoops(vertx);
        this.hostPolicy = hostPolicy;
        this.resolver = resolver;
        this.refusals = refusals;
    }

    /** How many event loops callers may come from (each gets its own pool). */
    private static int eventLoops(Vertx vertx) {
        if (!(vertx instanceof VertxInternal internal)) {
            return 1;
        }
        int count = 0;
        for (EventExecutor ignored : internal.getEventLoopGroup()) {
            count++;
        }
        return Math.max(1, count);
    }

    /** The HTTP/1.1 pool's size per upstream host. */
    public int http1ConnectionsPerHost() {
        return http1ConnectionsPerHost;
    }

    /** The HTTP/2 pool's size per upstream host. */
    public int http2ConnectionsPerHost() {
        return http2ConnectionsPerHost;
    }

    private Clients clients(Duration connectCeiling) {
        Context context = Vertx.currentContext();
        Thread loop = context != null && context.isEventLoopContext() ? Thread.currentThread() : null;
        return clientsByKey.computeIfAbsent(new ClientKey(connectCeiling, loop), key -> {
            Duration ceiling = key.connectCeiling();
            // the per-host bounds are shared out over the event loops' pools
            PoolOptions pool = new PoolOptions()
                    .setHttp1MaxSize(sharedOut(http1ConnectionsPerHost))
                    .setHttp2MaxSize(sharedOut(http2ConnectionsPerHost));
            HttpClient cleartext =
                    vertx.createHttpClient(baseOptions(ceiling).setProtocolVersion(HttpVersion.HTTP_1_1), pool);
            HttpClient tls = vertx.createHttpClient(tlsOptions(ceiling), pool);
            return new Clients(cleartext, tls);
        });
    }

    /** The TLS client's options for one connect ceiling, which also bounds the TLS handshake. */
    static HttpClientOptions tlsOptions(Duration connectCeiling) {
        return baseOptions(connectCeiling)
                .setSsl(true)
                .setUseAlpn(true)
                .setProtocolVersion(HttpVersion.HTTP_2)
                .setHttp2KeepAliveTimeout(KEEP_ALIVE_SECONDS)
                .setSslHandshakeTimeout(connectCeiling.toMillis())
                .setSslHandshakeTimeoutUnit(TimeUnit.MILLISECONDS);
    }

    /** One event loop's share of a per-host bound (at least one connection). */
    private int sharedOut(int perHost) {
        return Math.max(1, (perHost + eventLoops - 1) / eventLoops);
    }

    /**
     * The upstream clients are never traced by Vert.x's own HTTP client tracing ({@link
     * TracingPolicy#IGNORE}): its spans would record the upstream URL (a relay's query may carry a
     * key) and it would send the gateway's {@code traceparent} to the providers. The gateway's own
     * attempt span stands for each upstream call instead.
     */
    private static HttpClientOptions baseOptions(Duration connectCeiling) {
        return new HttpClientOptions()
                .setTracingPolicy(TracingPolicy.IGNORE)
                .setKeepAlive(true)
                .setKeepAliveTimeout(KEEP_ALIVE_SECONDS)
                .setTcpNoDelay(true)
                .setVerifyHost(true)
                .setDecompressionSupported(false)
                .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, connectCeiling.toMillis()));
    }

    @PreDestroy
    void close() {
        clientsByKey.values().forEach(Clients::close);
    }

    /**
     * Sends the request and reads the whole response body: the buffered path, and model tests.
     *
     * @param modelTest the outcome is a model connectivity test's ({@code model_test_status} /
     *     {@code model_test} labels) rather than forwarding's
     */
    public Uni<UpstreamResponse.Complete> exchange(
            UpstreamRequest request, UpstreamTimeouts timeouts, boolean modelTest) {
        return exchange(request, timeouts, modelTest, Long.MAX_VALUE);
    }

    /**
     * {@link #exchange(UpstreamRequest, UpstreamTimeouts, boolean)} reading at most {@code
     * maxBodyBytes} of the answer: past that the exchange is reset and comes back {@link
     * UpstreamResponse.Complete#oversize() oversize}, with an empty body and a {@link
     * Verdict.NotAFailure} verdict (the size of an answer says nothing about the credential).
     */
    public Uni<UpstreamResponse.Complete> exchange(
            UpstreamRequest request, UpstreamTimeouts timeouts, boolean modelTest, long maxBodyBytes) {
        return Uni.createFrom().emitter(emitter -> send(request, timeouts, modelTest, false, maxBodyBytes, emitter));
    }

    /**
     * Sends the request for streaming passthrough. A non-2xx response is read whole (its body
     * decides retry classification) and comes back {@link UpstreamResponse.Complete}, as does an
     * exchange that breaks or ends before the first body byte; a 2xx response with a body comes back
     * {@link UpstreamResponse.Streaming} as soon as its first chunk has arrived, paused.
     */
    public Uni<UpstreamResponse> open(UpstreamRequest request, UpstreamTimeouts timeouts) {
        return open(request, timeouts, Long.MAX_VALUE);
    }

    /** {@link #open(UpstreamRequest, UpstreamTimeouts)} reading a non-2xx answer up to {@code maxBodyBytes}. */
    public Uni<UpstreamResponse> open(UpstreamRequest request, UpstreamTimeouts timeouts, long maxBodyBytes) {
        return Uni.createFrom().emitter(emitter -> send(request, timeouts, false, true, maxBodyBytes, emitter));
    }

    private <T extends UpstreamResponse> void send(
            UpstreamRequest request,
            UpstreamTimeouts timeouts,
            boolean modelTest,
            boolean streaming,
            long maxBodyBytes,
            UniEmitter<? super T> emitter) {
        Exchange<T> exchange = new Exchange<>(emitter);
        emitter.onTermination(exchange::abandonIfPending);
        // a marker in the answer that the request itself carried is the upstream quoting it back
        ClientEcho echo = ClientEcho.of(request.body(), request.url());
        RequestOptions options;
        try {
            options = options(request, timeouts);
        } catch (IllegalArgumentException e) {
            exchange.complete(failed(invalidUrl(e), modelTest, echo));
            return;
        }
        long began = System.nanoTime();
        Clients clients = clients(timeouts.connect());
        HttpClient client = Boolean.TRUE.equals(options.isSsl()) ? clients.tls() : clients.cleartext();
        Context caller = Vertx.currentContext();
        String host = options.getHost();
        resolve(host).onComplete(resolved -> {
            // the exchange goes on (and completes) on the caller's context, as without a lookup
            if (caller == null || Vertx.currentContext() == caller) {
                judged(
                        resolved,
                        client,
                        options,
                        request,
                        timeouts,
                        modelTest,
                        streaming,
                        maxBodyBytes,
                        exchange,
                        echo,
                        began);
            } else {
                caller.runOnContext(ignored -> judged(
                        resolved,
                        client,
                        options,
                        request,
                        timeouts,
                        modelTest,
                        streaming,
                        maxBodyBytes,
                        exchange,
                        echo,
                        began));
            }
        });
    }

    /** Connects to the resolved address when the host policy allows it; answers a refusal otherwise. */
    private <T extends UpstreamResponse> void judged(
            AsyncResult<InetAddress> resolved,
            HttpClient client,
            RequestOptions options,
            UpstreamRequest request,
            UpstreamTimeouts timeouts,
            boolean modelTest,
            boolean streaming,
            long maxBodyBytes,
            Exchange<T> exchange,
            ClientEcho echo,
            long began) {
        String host = options.getHost();
        if (resolved.failed()) {
            String server = host + ":" + options.getPort();
            exchange.complete(failed(describe(resolved.cause(), timeouts, false, server), modelTest, echo));
            return;
        }
        InetAddress address = resolved.result();
        boolean cleartext = !Boolean.TRUE.equals(options.isSsl());
        HostPolicy.Reason refusal = hostPolicy.checkResolved(host, address, cleartext, options.getPort());
        if (refusal != null) {
            refused(host, address, refusal, modelTest);
            exchange.complete(failed(ADDRESS_REFUSED + " (" + refusal.wire() + ")", modelTest, echo));
            return;
        }
        // the address judged is the address connected to: no second lookup can rebind the name.
        // The host name stays the authority (Host header, SNI, certificate verification).
        options.setServer(SocketAddress.inetSocketAddress(new InetSocketAddress(address, options.getPort())));
        connect(client, options, request, timeouts, modelTest, streaming, maxBodyBytes, exchange, echo, began);
    }

    /** The host's address: a literal without a lookup, a name through the resolver. */
    private Future<InetAddress> resolve(String host) {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        byte[] literal = NetUtil.createByteArrayFromIpAddressString(bare);
        if (literal != null) {
            try {
                return Future.succeededFuture(InetAddress.getByAddress(literal));
            } catch (java.net.UnknownHostException e) {
                return Future.failedFuture(e);
            }
        }
        try {
            return resolver.resolve(host);
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
    }

    private void refused(String host, InetAddress address, HostPolicy.Reason reason, boolean modelTest) {
        String shown = address.getHostAddress();
        LOG.warnf(
                "%s (%s): %s resolved to %s; nothing was sent (route.upstream-hosts.*)",
                ADDRESS_REFUSED, reason.wire(), host, shown);
        try {
            refusals.accept(new AddressRefused(host, shown, reason.wire(), modelTest));
        } catch (RuntimeException e) {
            LOG.debugf("address refusal not counted: %s", e);
        }
    }

    private <T extends UpstreamResponse> void connect(
            HttpClient client,
            RequestOptions options,
            UpstreamRequest request,
            UpstreamTimeouts timeouts,
            boolean modelTest,
            boolean streaming,
            long maxBodyBytes,
            Exchange<T> exchange,
            ClientEcho echo,
            long began) {
        String server = options.getHost() + ":" + options.getPort();
        client.request(options).onComplete(connected -> {
            if (connected.failed()) {
                exchange.complete(failed(describe(connected.cause(), timeouts, false, server), modelTest, echo));
                return;
            }
            HttpClientRequest outbound = connected.result();
            // failures reach the send/response callbacks; this only keeps an intended reset (also the
            // one right below, when the client left while connecting) out of the error log
            outbound.exceptionHandler(failure -> LOG.debugf("upstream request to %s ended: %s", server, failure));
            if (!exchange.connected(outbound)) {
                return;
            }
            outbound.send(Buffer.buffer(request.body())).onComplete(headed -> {
                if (headed.failed()) {
                    exchange.complete(failed(describe(headed.cause(), timeouts, true, server), modelTest, echo));
                    return;
                }
                HttpClientResponse response = headed.result();
                long headNanos = System.nanoTime() - began;
                int status = response.statusCode();
                if (streaming && StreamingPassthrough.statusAllows(status)) {
                    UpstreamStream stream =
                            new UpstreamStream(vertx, outbound, response, timeouts, modelTest, headNanos);
                    stream.attach(
                            first -> exchange.complete(new UpstreamResponse.Streaming(first)),
                            outcome -> exchange.complete(
                                    complete(status, response.headers(), Buffer.buffer(), outcome, headNanos, echo)));
                    return;
                }
                BufferedBody.read(vertx, outbound, response, timeouts, maxBodyBytes, (body, error) -> {
                    if (body == null) {
                        exchange.complete(oversize(status, response.headers(), modelTest, headNanos));
                        return;
                    }
                    String text = body.toString(StandardCharsets.UTF_8);
                    exchange.complete(complete(
                            status,
                            response.headers(),
                            body,
                            outcome(request, response, status, text, error, modelTest),
                            headNanos,
                            echo));
                });
            });
        });
    }

    /**
     * One exchange's link to its subscriber: a subscriber that goes away before the result (the
     * client disconnected) resets the upstream request so it does not keep the upstream busy.
     */
    private static final class Exchange<T> {

        private final UniEmitter<? super T> emitter;
        private volatile HttpClientRequest outbound;
        private volatile boolean done;

        Exchange(UniEmitter<? super T> emitter) {
            this.emitter = emitter;
        }

        /** False when the subscriber already went away; the request is then reset. */
        boolean connected(HttpClientRequest request) {
            outbound = request;
            if (done) {
                request.reset();
                return false;
            }
            return true;
        }

        @SuppressWarnings("unchecked")
        void complete(UpstreamResponse response) {
            if (!done) {
                done = true;
                emitter.complete((T) response);
            }
        }

        void abandonIfPending() {
            if (!done) {
                done = true;
                HttpClientRequest request = outbound;
                if (request != null) {
                    request.reset();
                }
            }
        }
    }

    private static RequestOptions options(UpstreamRequest request, UpstreamTimeouts timeouts) {
        URI uri = URI.create(request.url());
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("scheme must be http or https");
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("no host");
        }
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        for (Map.Entry<String, String> header : request.headers()) {
            headers.add(header.getKey(), header.getValue());
        }
        // the URI parsed once: setAbsoluteURI(String) would parse the URL a second time per request
        boolean ssl = scheme.equals("https");
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return new RequestOptions()
                .setMethod(HttpMethod.valueOf(request.method()))
                .setHost(uri.getHost())
                .setPort(uri.getPort() >= 0 ? uri.getPort() : ssl ? 443 : 80)
                .setSsl(ssl)
                .setURI(uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery())
                .setHeaders(headers)
                .setConnectTimeout(timeouts.connect().toMillis())
                .setIdleTimeout(timeouts.readGap().toMillis());
    }

    /**
     * Why the URL was refused, without the URL itself: it holds the credential's base URL and
     * whatever the request put in the path.
     */
    static String invalidUrl(IllegalArgumentException failure) {
        String reason =
                failure.getCause() instanceof URISyntaxException syntax ? syntax.getReason() : failure.getMessage();
        return "invalid upstream URL" + (reason == null || reason.contains("://") ? "" : ": " + reason);
    }

    private static UpstreamOutcome outcome(
            UpstreamRequest request,
            HttpClientResponse response,
            int status,
            String text,
            String transportError,
            boolean modelTest) {
        String contentType = response.getHeader("content-type");
        boolean sse = request.stream()
                || (contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("text/event-stream"));
        return new UpstreamOutcome(
                status, transportError, text, sse, sse && StreamCompletion.hasTerminalMarker(text), modelTest);
    }

    private static UpstreamResponse.Complete failed(String transportError, boolean modelTest, ClientEcho echo) {
        UpstreamOutcome outcome = UpstreamOutcome.transportFailure(transportError, modelTest);
        return new UpstreamResponse.Complete(
                null, MultiMap.caseInsensitiveMultiMap(), Buffer.buffer(), outcome, echo, -1, false);
    }

    /** An answer cut off at the size cap: nothing of it is kept, and it is no evidence either way. */
    private static UpstreamResponse.Complete oversize(int status, MultiMap headers, boolean modelTest, long headNanos) {
        UpstreamOutcome outcome = new UpstreamOutcome(status, null, "", false, false, modelTest);
        return new UpstreamResponse.Complete(
                status, headers, Buffer.buffer(), outcome, ClientEcho.NONE, headNanos, true);
    }

    private static UpstreamResponse.Complete complete(
            int status, MultiMap headers, Buffer body, UpstreamOutcome outcome, long headNanos, ClientEcho echo) {
        return new UpstreamResponse.Complete(status, headers, body, outcome, echo, headNanos, false);
    }

    /**
     * The transport error text: which ceiling fired and its setting, or what broke the connection.
     * Never contains request headers.
     *
     * @param connected whether a connection had been obtained (a timeout is then the read gap)
     */
    static String describe(Throwable failure, UpstreamTimeouts timeouts, boolean connected, String server) {
        if (failure instanceof TimeoutException) {
            return connected ? timeouts.readGapTimeoutMessage() : timeouts.connectTimeoutMessage(server);
        }
        // the connect ceiling also bounds the TCP connect and the TLS handshake: name it either way
        if (failure instanceof ConnectTimeoutException) {
            return timeouts.connectTimeoutMessage(server);
        }
        if (causedBy(failure, SslHandshakeTimeoutException.class)) {
            return timeouts.tlsHandshakeTimeoutMessage(server);
        }
        if (failure instanceof ConnectException) {
            String detail = failure.getMessage() == null ? "" : ": " + failure.getMessage();
            return "connection failed" + detail;
        }
        if (failure instanceof HttpClosedException) {
            return "connection closed by the upstream before the response was complete";
        }
        String message = failure.getMessage();
        String name = failure.getClass().getSimpleName();
        return message == null || message.isBlank() ? name : name + ": " + message;
    }

    private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
            if (cause.getCause() == cause) {
                return false;
            }
        }
        return false;
    }
}
