package io.routegateway.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.routegateway.demo.DemoUpstream;
import io.routegateway.testsupport.PostgresDatabaseResource;
import io.routegateway.testsupport.ProducerSigning;
import io.routegateway.testsupport.RestartableKafkaBroker;
import io.vertx.core.Vertx;

/**
 * The whole route gateway on this machine for the end-to-end tests: a Kafka broker of its own (one
 * the fault tests may stop and restart), a fresh PostgreSQL database (created here, dropped at the
 * end), the demo upstream in this JVM, and the three services as real processes from their packaged
 * {@code quarkus-app} jars, on free ports, with short recovery ticks and timeouts.
 *
 * <p>One system is shared by every test class of a run ({@link #shared()}); tests keep apart by
 * creating their own credentials, groups, AccessKeys and demo accounts. It is closed once, at the
 * end of the run ({@link SystemExtension}), and by a shutdown hook if the JVM ends otherwise.
 */
public final class RouteSystem implements AutoCloseable {

    public static final String ADMIN_TOKEN = "e2e-admin-token-0123456789";
    /** The internal token state-service presents to recovery-service (route.internal-token). */
    public static final String INTERNAL_TOKEN = "e2e-internal-token-0123456789abcdef01";
    /** The state-topic signing pair (route.state-signing.*): state-service signs, the gateways verify. */
    public static final String SIGNING_KEY_ID = "e2e";

    public static final String SIGNING_PRIVATE_KEY = "MC4CAQAwBQYDK2VwBCIEIFVRZTuRtIVA3uSyuHMgFsSnICbjZjkhfMUX/cUfYe1P";
    public static final String SIGNING_PUBLIC_KEY = "MCowBQYDK2VwAyEAxjNvnsJavKodrTFRxNBuceojR4W4BORHWBaUyi3wSng=";
    /** Recovery ticks every 2 s instead of 30 s, so recovery shows within a test. */
    public static final int RECOVERY_TICK_SECONDS = 2;

    /**
     * state-service refreshes an access token this long before it expires (default 5 minutes): a
     * token the demo's OAuth server issues for 30 s falls due 10 s after it was issued.
     */
    public static final Duration OAUTH_REFRESH_LEAD = Duration.ofSeconds(20);
    /** The refresher looks for due tokens every second instead of every 2 s. */
    public static final Duration OAUTH_TICK = Duration.ofSeconds(1);
    /** The OAuth client id state-service presents to the demo's token endpoint, per platform. */
    public static final String OAUTH_CLIENT_ID_PREFIX = "e2e-client-";

    static final Duration READY_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration BROKER_TIMEOUT = Duration.ofMinutes(2);

    /**
     * A consumer killed with SIGKILL leaves its group after 6 s instead of 45 s, so a restarted
     * state-service gets its partitions back within a test. System properties rather than
     * environment variables: the Kafka connector collects these keys by name.
     */
    private static final Map<String, String> KAFKA_CONSUMER_SETTINGS = Map.of(
            "mp.messaging.connector.smallrye-kafka.session.timeout.ms", "6000",
            "mp.messaging.connector.smallrye-kafka.heartbeat.interval.ms", "2000");

    private static RouteSystem shared;

    private final Path root;
    private final Path logDir;
    private final String secretKey;
    private final RestartableKafkaBroker broker;
    private final PostgresDatabaseResource databaseResource;
    private final Map<String, String> databaseSettings;
    private final Database database;
    private final Vertx vertx;
    private final DemoUpstream demo;
    private final int demoPort;
    private final TraceCollector traces;
    private final ServiceProcess state;
    private final ServiceProcess gateway;
    private final ServiceProcess recovery;
    private final List<ServiceProcess> extraGateways = new ArrayList<>();
    private final List<ServiceProcess> extraStates = new ArrayList<>();
    private final Map<String, String> stateEnvironment;
    private final AdminClient admin;
    private boolean closed;

    private RouteSystem() {
        long began = System.nanoTime();
        root = projectRoot();
        logDir = root.resolve("e2e-tests/target/e2e-logs");
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        secretKey = Base64.getEncoder().encodeToString(key);
        List<AutoCloseable> started = new ArrayList<>();
        try {
            broker = RestartableKafkaBroker.start(BROKER_TIMEOUT);
            started.add(broker);
            databaseResource = new PostgresDatabaseResource();
            Map<String, String> properties = databaseResource.start();
            started.add(databaseResource::stop);
            databaseSettings = databaseSettings(properties);
            database = new Database(
                    properties.get("quarkus.datasource.jdbc.url"),
                    properties.get("quarkus.datasource.username"),
                    properties.get("quarkus.datasource.password"));
            vertx = Vertx.vertx();
            started.add(() ->
                    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
            demo = new DemoUpstream(vertx);
            demoPort = demo.start(0).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            traces = TraceCollector.start(vertx);

            int recoveryPort = freePort();
            stateEnvironment = stateEnvironment(recoveryPort);
            state = service("state-service", freePort(), stateEnvironment);
            gateway = service("gateway-service", freePort(), gatewayEnvironment());
            recovery = service("recovery-service", recoveryPort, recoveryEnvironment());
            admin = new AdminClient(state.baseUrl(), ADMIN_TOKEN);

            // all three at once: the gateway needs no database, recovery-service only reads the
            // schema on its ticks (a tick before state-service's migration fails and is retried)
            for (ServiceProcess service : List.of(state, gateway, recovery)) {
                service.start();
                started.add(service::stop);
            }
            CompletableFuture.allOf(
                            CompletableFuture.runAsync(() -> state.awaitReady(READY_TIMEOUT)),
                            CompletableFuture.runAsync(() -> gateway.awaitReady(READY_TIMEOUT)),
                            CompletableFuture.runAsync(() -> recovery.awaitReady(READY_TIMEOUT)))
                    .join();
        } catch (Exception | Error e) {
            for (int i = started.size() - 1; i >= 0; i--) {
                closeQuietly(started.get(i));
            }
            throw new IllegalStateException("the end-to-end system did not start: " + e.getMessage(), e);
        }
        System.out.printf(
                "E2E system up in %d s: broker %s, database %s, demo upstream :%d, state :%d, gateway :%d,"
                        + " recovery :%d, logs %s%n",
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began),
                broker.bootstrapServers(),
                databaseSettings.get("ROUTE_DB_NAME"),
                demoPort,
                state.port(),
                gateway.port(),
                recovery.port(),
                logDir);
    }

    /** The system of this run, started on first use. */
    public static synchronized RouteSystem shared() {
        if (shared == null) {
            RouteSystem system = new RouteSystem();
            Runtime.getRuntime().addShutdownHook(new Thread(system::close, "e2e-system-stop"));
            shared = system;
        }
        shared.ensureRunning();
        return shared;
    }

    /** Closes the shared system if one was started. */
    static synchronized void closeShared() {
        if (shared != null) {
            shared.close();
            shared = null;
        }
    }

    /** Brings back anything an earlier (perhaps failed) test left stopped. */
    public synchronized void ensureRunning() {
        if (!broker.isRunning()) {
            broker.restart();
        }
        for (ServiceProcess service : List.of(state, gateway, recovery)) {
            if (!service.isAlive()) {
                service.start();
                service.awaitReady(READY_TIMEOUT);
            }
        }
        for (ServiceProcess extra : extraGateways) {
            extra.stop();
        }
        extraGateways.clear();
        for (ServiceProcess extra : extraStates) {
            extra.stop();
        }
        extraStates.clear();
    }

    /** The repository root (the checkout the services were built in). */
    public Path root() {
        return root;
    }

    /** Where the processes' logs go ({@code e2e-tests/target/e2e-logs}). */
    public Path logDir() {
        return logDir;
    }

    public AdminClient admin() {
        return admin;
    }

    public GatewayClient gateway() {
        return new GatewayClient(gateway.baseUrl());
    }

    public ServiceProcess gatewayProcess() {
        return gateway;
    }

    public ServiceProcess state() {
        return state;
    }

    public ServiceProcess recovery() {
        return recovery;
    }

    public Database database() {
        return database;
    }

    public RestartableKafkaBroker broker() {
        return broker;
    }

    public OutcomeTap outcomes() {
        return new OutcomeTap(broker.bootstrapServers());
    }

    public DemoUpstream demo() {
        return demo;
    }

    /** The OTLP receiver gateway-service and state-service export their spans to. */
    public TraceCollector traces() {
        return traces;
    }

    /** Base URL that credentials use to reach the demo upstream. */
    public String demoBaseUrl() {
        return "http://127.0.0.1:" + demoPort;
    }

    /** Restarts a service process after a stop or a kill and waits until it is ready. */
    public void restart(ServiceProcess service) {
        service.stop();
        service.start();
        service.awaitReady(READY_TIMEOUT);
    }

    /**
     * {@code count} gateway replicas: the system's gateway and running extra ones, started only as
     * far as fewer are running, so the multi-replica tests of one run share them.
     */
    public synchronized List<ServiceProcess> gatewayReplicas(int count) {
        List<ServiceProcess> replicas = new ArrayList<>();
        replicas.add(gateway);
        for (ServiceProcess extra : extraGateways) {
            if (replicas.size() < count && extra.isAlive()) {
                replicas.add(extra);
            }
        }
        while (replicas.size() < count) {
            replicas.add(startExtraGateway());
        }
        return List.copyOf(replicas);
    }

    public synchronized ServiceProcess startExtraGateway() {
        ServiceProcess extra = service("gateway-service", freePort(), gatewayEnvironment());
        extraGateways.add(extra);
        extra.start();
        extra.awaitReady(READY_TIMEOUT);
        return extra;
    }

    /**
     * One more state-service replica on the same database and broker (its consumers join the same
     * groups, its schedulers compete for the same rows); stopped by the next {@link #ensureRunning()}
     * or at the end.
     */
    public synchronized ServiceProcess startExtraState() {
        return startExtraState(Map.of());
    }

    /** {@link #startExtraState()} with more settings (e.g. {@code STATE_OIDC_*} for single sign-on). */
    public synchronized ServiceProcess startExtraState(Map<String, String> extraEnvironment) {
        Map<String, String> environment = new LinkedHashMap<>(stateEnvironment);
        environment.putAll(extraEnvironment);
        ServiceProcess extra = service("state-service", freePort(), environment);
        extraStates.add(extra);
        extra.start();
        extra.awaitReady(READY_TIMEOUT);
        return extra;
    }

    /** Every process stopped by its PID, the database dropped, the broker's data deleted. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (ServiceProcess extra : extraGateways) {
            closeQuietly(extra::stop);
        }
        for (ServiceProcess extra : extraStates) {
            closeQuietly(extra::stop);
        }
        closeQuietly(recovery::stop);
        closeQuietly(gateway::stop);
        closeQuietly(state::stop);
        closeQuietly(() -> demo.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
        closeQuietly(traces::close);
        closeQuietly(
                () -> vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
        closeQuietly(broker);
        closeQuietly(databaseResource::stop);
    }

    // ---- settings -------------------------------------------------------------------------------

    private Map<String, String> common() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("ROUTE_SECRET_ENCRYPTION_KEY", secretKey);
        env.put("KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers());
        return env;
    }

    /**
     * Traces on, as an operator turns them on, exported over OTLP/HTTP to {@link #traces()}; the
     * sampling ratio is 0, so only a request that arrives with a sampled {@code traceparent} (and
     * what it causes) is traced and the rest of the run is untouched by it.
     */
    private Map<String, String> tracing() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("QUARKUS_OTEL_SDK_DISABLED", "false");
        env.put("QUARKUS_OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", traces.endpoint());
        env.put("QUARKUS_OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/protobuf");
        env.put("QUARKUS_OTEL_TRACES_SAMPLER_ARG", "0");
        env.put("QUARKUS_OTEL_BSP_SCHEDULE_DELAY", "200ms");
        return env;
    }

    private Map<String, String> stateEnvironment(int recoveryPort) {
        Map<String, String> env = common();
        env.putAll(databaseSettings);
        env.put("STATE_ADMIN_TOKEN", ADMIN_TOKEN);
        // every suite signs in from 127.0.0.1 and some send wrong tokens on purpose: a limit no run reaches
        env.put("STATE_ADMIN_SIGN_IN_THROTTLE_MAX_FAILURES", "100000");
        env.put("ROUTE_INTERNAL_TOKEN", INTERNAL_TOKEN);
        env.put("ROUTE_STATE_SIGNING_PRIVATE_KEY", SIGNING_PRIVATE_KEY);
        env.put("ROUTE_STATE_SIGNING_KEY_ID", SIGNING_KEY_ID);
        // the producers' public keys: the gateways' and recovery-service's, each its own (default ids)
        env.put("ROUTE_PRODUCER_SIGNING_PUBLIC_KEYS", ProducerSigning.PUBLIC_KEYS);
        env.put("STATE_RECOVERY_URL", "http://127.0.0.1:" + recoveryPort);
        env.putAll(oauthEnvironment());
        env.putAll(tracing());
        // WebhookIT's receiver listens on loopback; deliveries are polled and retried quickly
        env.put("STATE_WEBHOOK_ALLOWED_TARGETS", "127.0.0.1");
        env.put("STATE_WEBHOOK_POLL_INTERVAL", "300ms");
        env.put("STATE_WEBHOOK_BACKOFF", "500ms");
        env.put("STATE_WEBHOOK_MAX_BACKOFF", "2s");
        return env;
    }

    /**
     * Every platform's token endpoint and authorize page are the demo upstream's mock OAuth server;
     * short lead, lease, timeout and tick, so a refresh falls due and happens within a test.
     */
    private Map<String, String> oauthEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("ROUTE_OAUTH_REFRESH_LEAD", OAUTH_REFRESH_LEAD.toSeconds() + "s");
        env.put("ROUTE_OAUTH_LEASE", "15s");
        env.put("ROUTE_OAUTH_HTTP_TIMEOUT", "5s");
        env.put("ROUTE_OAUTH_TICK", OAUTH_TICK.toSeconds() + "s");
        for (String platform : List.of("codex", "claude", "gemini", "grok")) {
            String prefix = "ROUTE_OAUTH_" + platform.toUpperCase(Locale.ROOT) + "_";
            env.put(prefix + "TOKEN_URL", demoBaseUrl() + "/oauth/token");
            env.put(prefix + "AUTHORIZE_URL", demoBaseUrl() + "/oauth/authorize");
            env.put(prefix + "CLIENT_ID", OAUTH_CLIENT_ID_PREFIX + platform);
        }
        return env;
    }

    private Map<String, String> gatewayEnvironment() {
        Map<String, String> env = common();
        env.put("ROUTE_STATE_SIGNING_PUBLIC_KEYS", SIGNING_KEY_ID + "=" + SIGNING_PUBLIC_KEY);
        // every gateway replica of this deployment signs route.outcomes and route.usage with one key
        env.put("ROUTE_PRODUCER_SIGNING_PRIVATE_KEY", ProducerSigning.GATEWAY_PRIVATE_KEY);
        env.put("GATEWAY_UPSTREAM_CONNECT_TIMEOUT", "5s");
        env.put("GATEWAY_UPSTREAM_READ_GAP_TIMEOUT", "5s");
        // FrontDoorIT sends a body that never ends: a shorter body-read deadline than the 60 s default
        env.put("GATEWAY_REQUEST_BODY_READ_TIMEOUT", "20s");
        // a gateway may start before state-service has created the state topics
        env.put("GATEWAY_VIEW_PARTITION_REFRESH", "2s");
        env.putAll(tracing());
        return env;
    }

    private Map<String, String> recoveryEnvironment() {
        Map<String, String> env = common();
        env.put("ROUTE_PRODUCER_SIGNING_PRIVATE_KEY", ProducerSigning.RECOVERY_PRIVATE_KEY);
        env.putAll(databaseSettings);
        env.put("ROUTE_INTERNAL_TOKEN", INTERNAL_TOKEN);
        env.put("RECOVERY_TICK_SECONDS", Integer.toString(RECOVERY_TICK_SECONDS));
        env.put("RECOVERY_UPSTREAM_CONNECT_TIMEOUT", "5s");
        env.put("RECOVERY_UPSTREAM_READ_GAP_TIMEOUT", "5s");
        return env;
    }

    private ServiceProcess service(String module, int port, Map<String, String> environment) {
        Map<String, String> env = new LinkedHashMap<>(environment);
        int managementPort = freePort();
        env.put("QUARKUS_HTTP_PORT", Integer.toString(port));
        env.put("QUARKUS_MANAGEMENT_PORT", Integer.toString(managementPort));
        // loopback only, the API and the management interface alike
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("QUARKUS_MANAGEMENT_HOST", "127.0.0.1");
        return new ServiceProcess(
                module,
                root.resolve(module).resolve("target/quarkus-app/quarkus-run.jar"),
                port,
                managementPort,
                env,
                KAFKA_CONSUMER_SETTINGS,
                logDir.resolve(module + "-" + port + ".log"));
    }

    /** ROUTE_DB_* and the role, from the fresh database's JDBC URL. */
    private static Map<String, String> databaseSettings(Map<String, String> properties) {
        URI uri = URI.create(properties.get("quarkus.datasource.jdbc.url").substring("jdbc:".length()));
        Map<String, String> env = new LinkedHashMap<>();
        env.put("ROUTE_DB_HOST", uri.getHost());
        env.put("ROUTE_DB_PORT", Integer.toString(uri.getPort()));
        env.put("ROUTE_DB_NAME", uri.getPath().substring(1));
        env.put("QUARKUS_DATASOURCE_USERNAME", properties.get("quarkus.datasource.username"));
        env.put("QUARKUS_DATASOURCE_PASSWORD", properties.get("quarkus.datasource.password"));
        return env;
    }

    /** The repository root: {@code e2e.root} (set by the build), else the nearest parent with the services. */
    private static Path projectRoot() {
        String configured = System.getProperty("e2e.root");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath();
        }
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            if (Files.isDirectory(dir.resolve("state-service")) && Files.exists(dir.resolve("pom.xml"))) {
                return dir;
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("cannot find the repository root; set -De2e.root");
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            System.err.println("E2E cleanup step failed: " + e);
        }
    }
}
