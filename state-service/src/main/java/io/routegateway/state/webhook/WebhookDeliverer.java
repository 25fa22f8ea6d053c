package io.routegateway.state.webhook;

import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.scheduler.Scheduled;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.json.Json;
import io.routegateway.core.webhook.DeliveryBackoff;
import io.routegateway.core.webhook.Notification;
import io.routegateway.core.webhook.TargetPolicy;
import io.routegateway.core.webhook.WebhookBody;
import io.routegateway.core.webhook.WebhookSignature;
import io.routegateway.state.metrics.StateMetrics;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.core.http.HttpClient;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import org.jboss.logging.Logger;

/**
 * Sends pending webhook deliveries; runs on every replica, and each delivery is sent by one of them.
 *
 * <p>A poll claims due rows in one statement: {@code FOR UPDATE SKIP LOCKED} picks rows no other
 * replica is claiming, and the same {@code UPDATE} pushes their {@code next_attempt_at} past the
 * lease ({@code state.webhook.lease}) and counts the attempt, so once it commits no other replica
 * sees them as due (a claimer that waited on the lock re-checks the condition on the new row
 * version and skips it). The HTTP call runs outside any transaction; its outcome is written back
 * with the attempt number the claim took, so a late answer after the lease passed cannot overwrite
 * a newer attempt's. A replica that dies mid-delivery leaves the row to another after the lease:
 * at-least-once, the receiver deduplicates on {@code X-Route-Delivery-Id}.
 *
 * <p>Each attempt resolves the host, checks every address against the {@link TargetPolicy} and
 * connects to the address it checked. A 2xx answer delivers; anything else (another status, a
 * timeout, a refused connection or target) retries after {@link DeliveryBackoff} until the attempts
 * are used up ({@code failed}). The secret is opened only to sign and never logged.
 */
@ApplicationScoped
public class WebhookDeliverer {

    private static final Logger LOG = Logger.getLogger(WebhookDeliverer.class);

    static final String CLAIM = "UPDATE webhook_deliveries d SET next_attempt_at = $2, attempts = d.attempts + 1"
            + " FROM webhook_endpoints e"
            + " WHERE e.id = d.endpoint_id AND d.id IN (SELECT id FROM webhook_deliveries"
            + " WHERE status = 'pending' AND next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $3"
            + " FOR UPDATE SKIP LOCKED)"
            + " RETURNING d.id, d.endpoint_id, d.event_type, d.payload, d.attempts, e.url, e.secret_sealed, e.format";

    static final String DELIVERED = "UPDATE webhook_deliveries SET status = 'delivered', delivered_at = $3,"
            + " last_status = $4, last_error = NULL, next_attempt_at = NULL"
            + " WHERE id = $1 AND attempts = $2 AND status = 'pending'";

    static final String NOT_DELIVERED = "UPDATE webhook_deliveries SET status = $3, next_attempt_at = $4,"
            + " last_status = $5, last_error = $6 WHERE id = $1 AND attempts = $2 AND status = 'pending'";

    static final String PENDING = "SELECT count(*) AS pending FROM webhook_deliveries WHERE status = 'pending'";

    /** Longest {@code last_error} kept. */
    static final int MAX_ERROR = 300;

    /** Bytes of an answer read (and dropped): receivers answer with little. */
    static final int MAX_ANSWER_BYTES = 16 * 1024;

    /** A claimed delivery. */
    record Claimed(
            UUID id,
            String endpointId,
            String eventType,
            String payload,
            int attempt,
            String url,
            String secretSealed,
            String format) {}

    /** How one attempt ended: {@code status} null when nothing answered. */
    record Attempt(Integer status, String error) {

        boolean delivered() {
            return status != null && status >= 200 && status < 300;
        }
    }

    private final Pool pool;
    private final Vertx vertx;
    private final SecretBox secretBox;
    private final Clock clock;
    private final WebhookConfig config;
    private final StateMetrics metrics;
    private final TargetPolicy policy;
    private final DeliveryBackoff backoff;
    private final HttpClient client;
    private final AtomicLong pending = new AtomicLong();

    WebhookDeliverer(
            Pool pool, Vertx vertx, SecretBox secretBox, Clock clock, WebhookConfig config, StateMetrics metrics) {
        this.pool = pool;
        this.vertx = vertx;
        this.secretBox = secretBox;
        this.clock = clock;
        this.config = config;
        this.metrics = metrics;
        this.policy = policyOf(config);
        this.backoff = new DeliveryBackoff(config.backoff(), config.maxBackoff(), config.maxAttempts());
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout(
                        (int) Math.min(Integer.MAX_VALUE, config.timeout().toMillis()))
                .setIdleTimeout((int) Math.max(1, config.timeout().toSeconds()))
                .setKeepAlive(false)
                .setVerifyHost(true));
        metrics.webhookPendingGauge(pending::get);
    }

    static TargetPolicy policyOf(WebhookConfig config) {
        return TargetPolicy.allowing(config.allowedTargets().orElse(List.of()));
    }

    /** The policy the admin API checks URLs with. */
    TargetPolicy policy() {
        return policy;
    }

    @PreDestroy
    void close() {
        client.closeAndForget();
    }

    @Scheduled(
            identity = "webhook-deliveries",
            every = "${state.webhook.poll-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> poll() {
        return deliverDue()
                .onFailure()
                .recoverWithItem(failure -> {
                    LOG.warnf("Webhook delivery round failed, the rows stay pending: %s", failure.toString());
                    return 0;
                })
                .flatMap(ignored -> refreshPending());
    }

    /** Claims the due deliveries and sends them; the number claimed. Safe to run on many replicas at once. */
    public Uni<Integer> deliverDue() {
        Instant now = clock.instant();
        return pool.withTransaction(connection -> connection
                        .preparedQuery(CLAIM)
                        .execute(Tuple.of(utc(now), utc(now.plus(config.lease())), config.batchSize())))
                .flatMap(rows -> {
                    List<Claimed> claimed = new ArrayList<>();
                    for (Row row : rows) {
                        claimed.add(new Claimed(
                                row.getUUID("id"),
                                row.getString("endpoint_id"),
                                row.getString("event_type"),
                                row.getString("payload"),
                                row.getInteger("attempts"),
                                row.getString("url"),
                                row.getString("secret_sealed"),
                                row.getString("format")));
                    }
                    if (claimed.isEmpty()) {
                        return Uni.createFrom().item(0);
                    }
                    List<Uni<Void>> sends = claimed.stream().map(this::deliver).toList();
                    return Uni.join().all(sends).andCollectFailures().replaceWith(claimed.size());
                });
    }

    private Uni<Void> refreshPending() {
        return pool.query(PENDING)
                .execute()
                .invoke(rows -> {
                    for (Row row : rows) {
                        pending.set(row.getLong("pending"));
                    }
                })
                .replaceWithVoid();
    }

    private Uni<Void> deliver(Claimed claimed) {
        return attempt(claimed)
                .onFailure()
                .recoverWithItem(failure -> new Attempt(null, failureText(failure)))
                .flatMap(result -> record(claimed, result));
    }

    private Uni<Attempt> attempt(Claimed claimed) {
        URI uri = URI.create(claimed.url());
        String host = TargetPolicy.host(uri);
        int port = uri.getPort() > 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
        return Uni.createFrom()
                .item(() -> resolve(host))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .flatMap(addresses -> {
                    for (InetAddress address : addresses) {
                        String refusal = policy.refusalOfAddress(host, address);
                        if (refusal != null) {
                            return Uni.createFrom().item(new Attempt(null, refusal));
                        }
                    }
                    return post(claimed, uri, SocketAddress.inetSocketAddress(port, addresses[0].getHostAddress()));
                });
    }

    private static InetAddress[] resolve(String host) {
        try {
            return InetAddress.getAllByName(host);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException("the target host does not resolve");
        }
    }

    private Uni<Attempt> post(Claimed claimed, URI uri, SocketAddress server) {
        Notification notification;
        try {
            notification = Json.MAPPER.readValue(claimed.payload(), Notification.class);
        } catch (Exception e) {
            return Uni.createFrom().item(new Attempt(null, "stored payload unreadable"));
        }
        byte[] body = WebhookBody.render(notification, claimed.format()).getBytes(StandardCharsets.UTF_8);
        long timestamp = clock.instant().getEpochSecond();
        String signature = WebhookSignature.sign(secret(claimed), timestamp, body);
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setAbsoluteURI(uri.toString())
                .setServer(server)
                .setFollowRedirects(false)
                .putHeader("Content-Type", "application/json")
                .putHeader("User-Agent", "route-gateway-webhooks/1")
                .putHeader(WebhookSignature.SIGNATURE_HEADER, signature)
                .putHeader(WebhookSignature.TIMESTAMP_HEADER, Long.toString(timestamp))
                .putHeader(WebhookSignature.DELIVERY_ID_HEADER, claimed.id().toString())
                .putHeader(WebhookSignature.EVENT_HEADER, claimed.eventType());
        return client.request(options)
                .flatMap(request -> request.send(Buffer.buffer(body)))
                .flatMap(response -> response.body()
                        .onFailure()
                        .recoverWithItem(Buffer.buffer())
                        .map(ignored -> response.statusCode()))
                .map(status -> new Attempt(status, status >= 200 && status < 300 ? null : "answered " + status))
                .ifNoItem()
                .after(config.timeout())
                .recoverWithItem(() -> new Attempt(null, "timed out after " + config.timeout()));
    }

    private String secret(Claimed claimed) {
        return secretBox.open(WebhookSecrets.binding(claimed.endpointId()), claimed.secretSealed());
    }

    private Uni<Void> record(Claimed claimed, Attempt result) {
        Instant now = clock.instant();
        if (result.delivered()) {
            metrics.webhookDelivery(StateMetrics.WebhookOutcome.DELIVERED);
            return pool.preparedQuery(DELIVERED)
                    .execute(Tuple.of(claimed.id(), claimed.attempt(), utc(now), result.status()))
                    .replaceWithVoid();
        }
        Instant next = backoff.nextAttempt(clock, claimed.attempt());
        metrics.webhookDelivery(
                next == null ? StateMetrics.WebhookOutcome.FAILED : StateMetrics.WebhookOutcome.RETRIED);
        LOG.infof(
                "Webhook delivery %s to endpoint %s, attempt %d: %s; %s",
                claimed.id(),
                claimed.endpointId(),
                claimed.attempt(),
                result.error(),
                next == null ? "attempts used up" : "next attempt at " + next);
        return pool.preparedQuery(NOT_DELIVERED)
                .execute(Tuple.tuple()
                        .addValue(claimed.id())
                        .addValue(claimed.attempt())
                        .addValue(next == null ? "failed" : "pending")
                        .addValue(next == null ? null : utc(next))
                        .addValue(result.status())
                        .addValue(truncate(result.error())))
                .replaceWithVoid();
    }

    private static String failureText(Throwable failure) {
        // the class and message of a connection failure name the host at most, never the secret
        String message = failure.getMessage();
        return failure.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    private static String truncate(String error) {
        if (error == null) {
            return null;
        }
        String oneLine = error.replaceAll("[\\p{Cntrl}]", " ");
        return oneLine.length() <= MAX_ERROR ? oneLine : oneLine.substring(0, MAX_ERROR);
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
