package io.routegateway.demo;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.demo.Behaviour.Mode;
import io.routegateway.demo.Replies.Protocol;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.Http2Settings;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.PfxOptions;

/**
 * A small LLM upstream for the local run, end-to-end tests and the benchmark. Each account is an
 * API key; its {@link Behaviour} is switched at run time:
 *
 * <pre>
 * PUT    /_control/accounts/{key}   {"mode":"status","status":429,"model":"upstream-sol"}
 * PUT    /_control/accounts/{key}   {"mode":"status","status":429,"then_status":400,"model":"m"}   429 once, then 400
 * PUT    /_control/accounts/{key}   {"mode":"echo","status":400}   vendor-style errors quoting the request
 * DELETE /_control/accounts/{key}   back to healthy
 * PUT    /_control/accounts/{key}   {"mode":"usage_limit","reset_after_seconds":120,"window":"5h"}
 * GET    /_control/accounts         behaviours and request counts per account and model, requests
 *                                    per HTTP version, connections to the TLS port
 * GET    /_control/oauth            the mock OAuth server's switches and counters
 * PUT    /_control/oauth            {"access_ttl_seconds":60,"invalid_grant":true,"fail_status":503,
 *                                    "delay_ms":200,"revoke_old_access":true}
 * DELETE /_control/oauth            switches back to their defaults
 * POST   /_control/oauth/grants     {"account_id":"acct-1","access_ttl_seconds":60}: fresh OAuth
 *                                    material, also as each platform CLI's credentials file
 * </pre>
 *
 * A streamed request may ask a healthy account for a slow stream, whatever the account's behaviour
 * is otherwise ({@link SlowStream}): {@code "demo_stream":{"frames":20,"interval_ms":50}} in the body
 * gets 20 one-token frames 50 ms apart, then the protocol's terminal frames (the benchmark's
 * concurrent-streams scenario).
 *
 * <p>Speaks OpenAI Chat Completions and Responses, Anthropic Messages and Gemini, buffered and SSE. A
 * healthy account plays an agent's turn ({@link ToolCalls}): offered tools, it calls the first one
 * (arguments from the tool's schema); given the tool's result, it answers with a final text.
 * Any key is accepted as a healthy account unless it starts with {@code invalid}.
 *
 * <p>Official (subscription) accounts: {@link OAuthServer} is the platforms' token endpoint ({@code
 * POST /oauth/token}, {@code GET /oauth/authorize}). A key that starts with {@link
 * OAuthServer#ACCESS_PREFIX} is an access token: accepted only while it is known and unexpired
 * (401 otherwise), and the demo account it stands for is the OAuth account id, so behaviours and
 * request counts are set and read by account id however often the token rotates.
 *
 * <p>Besides its cleartext HTTP/1.1 port it can listen on a TLS port ({@link #startTls}) that
 * speaks HTTP/2 to a client offering it by ALPN (HTTP/1.1 otherwise), as production upstreams do:
 * the same answers, many streams multiplexed on one connection (the benchmark's 10,000 concurrent
 * streams through one gateway replica, which would otherwise need an upstream socket per stream).
 *
 * <pre>
 * java -cp ... io.routegateway.demo.DemoUpstream 9300 \
 *   --tls-port 9302 --tls-keystore upstream.p12 --tls-password secret --tls-max-streams 1000
 * </pre>
 */
public final class DemoUpstream {

    static final String CONTROL = "/_control/accounts";
    static final String OAUTH_CONTROL = "/_control/oauth";
    /**
     * HTTP/2 streams one client connection to the TLS port may have open at once (the server's
     * SETTINGS_MAX_CONCURRENT_STREAMS), unless {@link #startTls} is given another figure. A Vert.x
     * server's default is 100.
     */
    public static final long DEFAULT_TLS_MAX_CONCURRENT_STREAMS = 1000;
    /**
     * Reads requests as the vendors do: a large inline attachment (one string over Jackson's default
     * 20,000,000 characters) is a valid request.
     */
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .build())
            .build());

    private final Vertx vertx;
    private final Map<String, Behaviour> behaviours = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();
    private final OAuthServer oauth;
    private final Clock clock;
    private final List<HttpServer> servers = new CopyOnWriteArrayList<>();
    private final Map<HttpVersion, LongAdder> requestsByVersion = new ConcurrentHashMap<>();
    /** Connections to the TLS port: opened so far, open now, most open at once. */
    private final LongAdder tlsOpened = new LongAdder();

    private final AtomicLong tlsOpen = new AtomicLong();
    private final AtomicLong tlsOpenMax = new AtomicLong();

    public DemoUpstream(Vertx vertx) {
        this(vertx, Clock.systemUTC());
    }

    public DemoUpstream(Vertx vertx, Clock clock) {
        this.vertx = vertx;
        this.clock = clock;
        this.oauth = new OAuthServer(clock);
    }

    /** The mock OAuth server: switches, counters and grants for the tests. */
    public OAuthServer oauth() {
        return oauth;
    }

    /**
     * {@code DemoUpstream [PORT] [--tls-port P --tls-keystore FILE.p12 --tls-password PW
     * [--tls-max-streams N]]}: the cleartext port (default 9300) and, when asked, the TLS port with
     * the PKCS#12 key store's key and certificate.
     */
    public static void main(String[] args) {
        int port = 9300;
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].startsWith("--")) {
                if (i + 1 >= args.length) {
                    fail("missing value of " + args[i]);
                }
                options.put(args[i].substring(2), args[++i]);
            } else {
                port = Integer.parseInt(args[i]);
            }
        }
        Vertx vertx = Vertx.vertx();
        DemoUpstream upstream = new DemoUpstream(vertx);
        // the local demo: short-lived access tokens, so a refresh shows within minutes
        String ttl = System.getenv("DEMO_OAUTH_ACCESS_TTL_SECONDS");
        if (ttl != null && !ttl.isBlank()) {
            upstream.oauth().setAccessTtl(Duration.ofSeconds(Long.parseLong(ttl.trim())));
        }
        upstream.start(port)
                .onSuccess(actual -> System.out.println("demo upstream listening on http://127.0.0.1:" + actual))
                .onFailure(error -> fail("demo upstream failed to start: " + error.getMessage()));
        String tlsPort = options.remove("tls-port");
        String keystore = options.remove("tls-keystore");
        String password = options.remove("tls-password");
        String maxStreams = options.remove("tls-max-streams");
        if (!options.isEmpty()) {
            fail("unknown options " + options.keySet());
        }
        if (tlsPort == null) {
            return;
        }
        if (keystore == null || password == null) {
            fail("--tls-port needs --tls-keystore and --tls-password");
        }
        upstream.startTls(
                        Integer.parseInt(tlsPort),
                        new PfxOptions().setPath(keystore).setPassword(password),
                        maxStreams == null ? DEFAULT_TLS_MAX_CONCURRENT_STREAMS : Long.parseLong(maxStreams))
                .onSuccess(actual -> System.out.println(
                        "demo upstream listening on https://127.0.0.1:" + actual + " (HTTP/2 by ALPN)"))
                .onFailure(error -> fail("demo upstream failed to start its TLS port: " + error.getMessage()));
    }

    private static void fail(String message) {
        System.err.println(message);
        System.exit(1);
    }

    /** Starts on {@code port} (0 = any free port); completes with the bound port. */
    public Future<Integer> start(int port) {
        return listen(new HttpServerOptions().setHost("127.0.0.1").setPort(port));
    }

    /**
     * Starts a TLS port (0 = any free port) with {@code keyCert}'s key and certificate, speaking
     * HTTP/2 to a client that offers it by ALPN and HTTP/1.1 to one that does not; one HTTP/2
     * connection carries up to {@code maxConcurrentStreams} streams at once. Completes with the
     * bound port. The cleartext port, if started, is unchanged.
     */
    public Future<Integer> startTls(int port, KeyCertOptions keyCert, long maxConcurrentStreams) {
        HttpServer server = vertx.createHttpServer(new HttpServerOptions()
                .setHost("127.0.0.1")
                .setPort(port)
                .setSsl(true)
                .setUseAlpn(true)
                .setKeyCertOptions(keyCert)
                .setInitialSettings(new Http2Settings().setMaxConcurrentStreams(maxConcurrentStreams)));
        server.connectionHandler(connection -> {
            tlsOpened.increment();
            tlsOpenMax.accumulateAndGet(tlsOpen.incrementAndGet(), Math::max);
            connection.closeHandler(ignored -> tlsOpen.decrementAndGet());
        });
        return listen(server);
    }

    private Future<Integer> listen(HttpServerOptions options) {
        return listen(vertx.createHttpServer(options));
    }

    private Future<Integer> listen(HttpServer server) {
        return server.requestHandler(this::handle).listen().map(bound -> {
            servers.add(bound);
            return bound.actualPort();
        });
    }

    public Future<Void> stop() {
        List<Future<Void>> closing = servers.stream().map(HttpServer::close).toList();
        servers.clear();
        return Future.all(closing).mapEmpty();
    }

    public void setBehaviour(String account, Behaviour behaviour) {
        behaviours.put(account, behaviour);
    }

    public void reset(String account) {
        behaviours.remove(account);
    }

    /** Requests seen for (account, upstream model). */
    public long requestCount(String account, String model) {
        LongAdder adder = requests.get(account + "|" + model);
        return adder == null ? 0 : adder.sum();
    }

    /** Requests seen over an HTTP version, on every port. */
    public long requestCount(HttpVersion version) {
        LongAdder adder = requestsByVersion.get(version);
        return adder == null ? 0 : adder.sum();
    }

    /** Connections to the TLS port: {opened so far, open now, most open at once}. */
    public long[] tlsConnections() {
        return new long[] {tlsOpened.sum(), tlsOpen.get(), tlsOpenMax.get()};
    }

    /** Requests seen for an account, every model together. */
    public long requestCount(String account) {
        long total = 0;
        for (Map.Entry<String, LongAdder> entry : requests.entrySet()) {
            if (entry.getKey().startsWith(account + "|")) {
                total += entry.getValue().sum();
            }
        }
        return total;
    }

    private void handle(HttpServerRequest request) {
        requestsByVersion
                .computeIfAbsent(request.version(), version -> new LongAdder())
                .increment();
        String path = request.path();
        if (path.startsWith(CONTROL)) {
            request.body().onSuccess(body -> control(request, path, body));
            return;
        }
        if (path.startsWith(OAUTH_CONTROL)) {
            request.body().onSuccess(body -> oauthControl(request, path, body));
            return;
        }
        if (path.endsWith("/oauth/token")) {
            request.body().onSuccess(body -> token(request, body));
            return;
        }
        if (path.endsWith("/oauth/authorize")) {
            authorize(request);
            return;
        }
        if (path.equals("/v1/models") || path.equals("/v1beta/models")) {
            json(
                    request.response(),
                    200,
                    "{\"object\":\"list\",\"data\":[{\"id\":\"demo-model\",\"object\":\"model\"}]}");
            return;
        }
        Protocol protocol = protocolOf(path);
        if (protocol == null) {
            json(
                    request.response(),
                    404,
                    "{\"error\":{\"message\":\"no such path " + path + "\",\"type\":\"invalid_request_error\"}}");
            return;
        }
        request.body().onSuccess(body -> generate(request, protocol, body));
    }

    private void generate(HttpServerRequest request, Protocol protocol, Buffer body) {
        String presented = account(request);
        HttpServerResponse response = request.response();
        // an official account: only a current access token of the mock OAuth server passes
        String account = presented != null && presented.startsWith(OAuthServer.ACCESS_PREFIX)
                ? oauth.accountOf(presented)
                : presented;
        if (account == null || account.startsWith("invalid")) {
            json(response, 401, Replies.statusError(401));
            return;
        }
        JsonNode parsed;
        try {
            parsed = body.length() == 0 ? JSON.createObjectNode() : JSON.readTree(body.getBytes());
        } catch (IOException e) {
            json(response, 400, "{\"error\":{\"message\":\"malformed JSON\",\"type\":\"invalid_request_error\"}}");
            return;
        }
        String model = protocol == Protocol.GEMINI
                ? geminiModel(request.path())
                : parsed.path("model").asText("demo-model");
        boolean stream = protocol == Protocol.GEMINI
                ? request.path().endsWith(":streamGenerateContent")
                : parsed.path("stream").asBoolean(false);
        requests.computeIfAbsent(account + "|" + model, key -> new LongAdder()).increment();
        Behaviour behaviour = behaviours.getOrDefault(account, Behaviour.HEALTHY);
        if (!behaviour.appliesTo(model)) {
            behaviour = Behaviour.HEALTHY;
        }
        Behaviour chosen = behaviour;
        Behaviour next = chosen.afterAnswer();
        if (next != chosen) {
            // the first request to meet it gets its status; a request that lost the race meets the next
            if (!behaviours.replace(account, chosen, next)) {
                chosen = behaviours.getOrDefault(account, Behaviour.HEALTHY);
                chosen = chosen.appliesTo(model) ? chosen : Behaviour.HEALTHY;
            }
        }
        Behaviour answer = chosen;
        if (answer.delayMs() > 0) {
            vertx.setTimer(answer.delayMs(), id -> respond(response, protocol, model, stream, answer, account, parsed));
        } else {
            respond(response, protocol, model, stream, answer, account, parsed);
        }
    }

    private void respond(
            HttpServerResponse response,
            Protocol protocol,
            String model,
            boolean stream,
            Behaviour behaviour,
            String account,
            JsonNode request) {
        String text = "Hello from demo account " + shortName(account) + " via " + model;
        switch (behaviour.mode()) {
            case STATUS:
                json(response, behaviour.status(), Replies.statusError(behaviour.status()));
                return;
            case ERROR_BODY:
                json(response, 200, Replies.errorBody(behaviour.message()));
                return;
            case QUOTA:
                json(response, 200, Replies.quotaBody());
                return;
            case ECHO:
                json(response, behaviour.status(), Echoes.error(protocol, behaviour.status(), model, request));
                return;
            case USAGE_LIMIT:
                UsageLimits.Answer limit = UsageLimits.answer(
                        protocol, clock.instant(), behaviour.resetAfterSeconds(), behaviour.window());
                limit.headers().forEach(response::putHeader);
                json(response, limit.status(), limit.body());
                return;
            case STALL:
                // hold the connection open and send nothing: the caller's read-gap timeout decides
                return;
            case STREAM_CUT:
                if (!stream) {
                    response.setStatusCode(200)
                            .putHeader("content-type", "application/json")
                            .setChunked(true);
                    response.write(Replies.answer(protocol, model, text).substring(0, 20));
                    response.reset();
                    return;
                }
                List<String> frames = Replies.stream(protocol, model, text);
                sse(response);
                for (int i = 0; i < Math.min(behaviour.cutAfterFrames(), frames.size() - 1); i++) {
                    response.write(frames.get(i));
                }
                // cut without the terminal event
                vertx.setTimer(5, id -> response.reset());
                return;
            default:
                ToolCalls.Call call = ToolCalls.callFor(protocol, request);
                if (call != null) {
                    if (stream) {
                        sse(response);
                        for (String frame : ToolCalls.stream(protocol, model, call)) {
                            response.write(frame);
                        }
                        response.end();
                    } else {
                        json(response, 200, ToolCalls.answer(protocol, model, call));
                    }
                    return;
                }
                if (ToolCalls.endsWithToolResult(protocol, request)) {
                    text = ToolCalls.afterResult(text);
                }
                SlowStream slow = stream ? SlowStream.of(request) : null;
                if (slow != null) {
                    slow.send(vertx, response, protocol, Replies.stream(protocol, model, slow.text()));
                    return;
                }
                if (stream) {
                    sse(response);
                    for (String frame : Replies.stream(protocol, model, text)) {
                        response.write(frame);
                    }
                    response.end();
                } else {
                    json(response, 200, Replies.answer(protocol, model, text));
                }
        }
    }

    private void control(HttpServerRequest request, String path, Buffer body) {
        HttpServerResponse response = request.response();
        String account = path.length() > CONTROL.length() + 1 ? path.substring(CONTROL.length() + 1) : null;
        try {
            switch (request.method().name()) {
                case "GET":
                    json(response, 200, JSON.writeValueAsString(describe()));
                    return;
                case "DELETE":
                    if (account != null) {
                        reset(account);
                    } else {
                        behaviours.clear();
                    }
                    json(response, 200, JSON.writeValueAsString(describe()));
                    return;
                case "PUT":
                case "POST":
                    if (account == null) {
                        json(response, 400, "{\"error\":{\"message\":\"name the account: " + CONTROL + "/{key}\"}}");
                        return;
                    }
                    JsonNode spec = JSON.readTree(body.length() == 0 ? "{}".getBytes() : body.getBytes());
                    Behaviour behaviour = new Behaviour(
                            Mode.parse(spec.path("mode").asText("healthy")),
                            spec.path("status").asInt(429),
                            spec.hasNonNull("model") ? spec.get("model").asText() : null,
                            spec.path("delay_ms").asLong(0),
                            spec.path("cut_after_frames").asInt(2),
                            spec.hasNonNull("message") ? spec.get("message").asText() : null,
                            spec.path("reset_after_seconds").asLong(3600),
                            spec.path("window").asText("5h"),
                            spec.path("then_status").asInt(0));
                    if (behaviour.thenStatus() != 0
                            && (behaviour.mode() != Mode.STATUS
                                    || behaviour.thenStatus() < 200
                                    || behaviour.thenStatus() > 599)) {
                        throw new IllegalArgumentException("then_status is a status from 200 to 599, for mode status");
                    }
                    if (!behaviour.window().equals("5h") && !behaviour.window().equals("7d")) {
                        throw new IllegalArgumentException("window must be 5h or 7d");
                    }
                    setBehaviour(account, behaviour);
                    json(response, 200, JSON.writeValueAsString(describe()));
                    return;
                default:
                    json(response, 405, "{\"error\":{\"message\":\"method not allowed\"}}");
            }
        } catch (IOException | IllegalArgumentException e) {
            json(
                    response,
                    400,
                    "{\"error\":{\"message\":\"bad control request: "
                            + e.getMessage().replace('"', '\'') + "\"}}");
        }
    }

    private void token(HttpServerRequest request, Buffer body) {
        HttpServerResponse response = request.response();
        if (request.method() != HttpMethod.POST) {
            json(response, 405, OAuthServer.error("invalid_request", "POST only"));
            return;
        }
        OAuthServer.Answer answer;
        try {
            answer = oauth.token(OAuthServer.parameters(request.getHeader("content-type"), body.getBytes()));
        } catch (IllegalArgumentException e) {
            answer = new OAuthServer.Answer(400, OAuthServer.error("invalid_request", e.getMessage()));
        }
        OAuthServer.Answer chosen = answer;
        long delay = oauth.delayMs();
        if (delay > 0) {
            vertx.setTimer(delay, id -> json(response, chosen.status(), chosen.body()));
        } else {
            json(response, chosen.status(), chosen.body());
        }
    }

    private void authorize(HttpServerRequest request) {
        Map<String, String> query = new LinkedHashMap<>();
        request.params().forEach(entry -> query.putIfAbsent(entry.getKey(), entry.getValue()));
        OAuthServer.Answer answer = oauth.authorize(query);
        if (answer.status() == 302) {
            request.response()
                    .setStatusCode(302)
                    .putHeader("location", answer.body())
                    .end();
        } else {
            json(request.response(), answer.status(), answer.body());
        }
    }

    private void oauthControl(HttpServerRequest request, String path, Buffer body) {
        HttpServerResponse response = request.response();
        String rest = path.substring(OAUTH_CONTROL.length());
        try {
            JsonNode spec = JSON.readTree(body.length() == 0 ? "{}".getBytes() : body.getBytes());
            if (rest.equals("/grants") && request.method() == HttpMethod.POST) {
                if (!spec.isObject()) {
                    throw new IllegalArgumentException("the body must be a JSON object");
                }
                String accountId =
                        spec.hasNonNull("account_id") ? spec.get("account_id").asText() : null;
                OAuthServer.Grant grant = spec.has("access_ttl_seconds")
                        ? oauth.issue(
                                accountId,
                                Duration.ofSeconds(
                                        spec.get("access_ttl_seconds").asLong()))
                        : oauth.issue(accountId);
                json(response, 201, JSON.writeValueAsString(CliFiles.grantView(grant)));
                return;
            }
            if (!rest.isEmpty()) {
                json(response, 404, OAuthServer.error("invalid_request", "no such control path " + path));
                return;
            }
            switch (request.method().name()) {
                case "GET":
                    break;
                case "PUT":
                case "POST":
                    oauth.configure(spec);
                    break;
                case "DELETE":
                    oauth.resetSwitches();
                    break;
                default:
                    json(response, 405, OAuthServer.error("invalid_request", "method not allowed"));
                    return;
            }
            json(response, 200, JSON.writeValueAsString(oauth.describe()));
        } catch (IOException | IllegalArgumentException e) {
            json(response, 400, OAuthServer.error("invalid_request", String.valueOf(e.getMessage())));
        }
    }

    private ObjectNode describe() {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode accounts = root.putObject("accounts");
        behaviours.forEach((account, behaviour) -> accounts.putObject(account)
                .put("mode", behaviour.mode().name().toLowerCase())
                .put("status", behaviour.status())
                .put("model", behaviour.model())
                .put("delay_ms", behaviour.delayMs())
                .put("cut_after_frames", behaviour.cutAfterFrames())
                .put("reset_after_seconds", behaviour.resetAfterSeconds())
                .put("window", behaviour.window()));
        ObjectNode counts = root.putObject("requests");
        new TreeMap<>(requests).forEach((key, adder) -> counts.put(key, adder.sum()));
        ObjectNode versions = root.putObject("requests_by_version");
        requestsByVersion.forEach((version, adder) -> versions.put(version.name(), adder.sum()));
        long[] tls = tlsConnections();
        root.putObject("tls_connections")
                .put("opened", tls[0])
                .put("open", tls[1])
                .put("open_max", tls[2]);
        return root;
    }

    static Protocol protocolOf(String path) {
        if (path.endsWith("/chat/completions")) {
            return Protocol.OPENAI_CHAT;
        }
        if (path.endsWith("/responses")) {
            return Protocol.OPENAI_RESPONSES;
        }
        if (path.endsWith("/messages")) {
            return Protocol.ANTHROPIC;
        }
        if (path.contains("/models/")
                && (path.endsWith(":generateContent") || path.endsWith(":streamGenerateContent"))) {
            return Protocol.GEMINI;
        }
        return null;
    }

    static String geminiModel(String path) {
        String tail = path.substring(path.indexOf("/models/") + "/models/".length());
        return tail.substring(0, tail.indexOf(':'));
    }

    static String account(HttpServerRequest request) {
        String key = presentedKey(request);
        // "<account>~<rest>": the account is what precedes the tilde, so a key can be more than the
        // account's name, and an answer that names its account does not quote the whole key (a
        // gateway masks its credential's secret wherever an answer quotes it)
        int tilde = key == null ? -1 : key.indexOf('~');
        return tilde > 0 ? key.substring(0, tilde) : key;
    }

    private static String presentedKey(HttpServerRequest request) {
        String authorization = request.getHeader("authorization");
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return authorization.substring(7).trim();
        }
        String key = request.getHeader("x-api-key");
        if (key == null) {
            key = request.getHeader("x-goog-api-key");
        }
        if (key == null) {
            key = request.getParam("key");
        }
        return key;
    }

    private static String shortName(String account) {
        return account.length() > 16 ? account.substring(0, 16) : account;
    }

    static void sse(HttpServerResponse response) {
        response.setStatusCode(200)
                .putHeader("content-type", "text/event-stream")
                .putHeader("cache-control", "no-cache")
                .setChunked(true);
    }

    private static void json(HttpServerResponse response, int status, String body) {
        response.setStatusCode(status)
                .putHeader("content-type", "application/json")
                .end(body);
    }
}
