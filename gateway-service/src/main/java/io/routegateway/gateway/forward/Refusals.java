package io.routegateway.gateway.forward;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import jakarta.inject.Singleton;

import io.routegateway.core.bridge.ErrorReply;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.EventIds;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.forward.ClientMessages;
import io.routegateway.core.forward.ErrorEnvelope;
import io.routegateway.core.forward.Refusal;
import io.routegateway.core.model.Protocol;
import io.routegateway.gateway.metrics.GatewayMetrics;
import io.routegateway.gateway.publish.UsagePublisher;
import io.vertx.core.http.HttpServerResponse;

/**
 * The one writer of the gateway's own answers, before routing (the front door, the request's
 * parse, the listings) and after it (the pool has nothing, the upstream's answer is too large):
 * the client protocol's error envelope ({@link ErrorEnvelope}: OpenAI's {@code {"error":{"message",
 * "type","param","code"}}}, Anthropic's {@code {"type":"error","error":{"type","message","code"}}},
 * Gemini's {@code {"error":{"code","message","status","details"}}}), the gateway's code in each and
 * the message {@link ClientMessages#bounded bounded} (it may quote client text such as a model
 * name). A refusal before routing is also counted here; one after it is settled by its exchange.
 */
@Singleton
public class Refusals {

    private final GatewayMetrics metrics;
    private final UsagePublisher usage;
    private final Clock clock;

    Refusals(GatewayMetrics metrics, UsagePublisher usage, Clock clock) {
        this.metrics = metrics;
        this.usage = usage;
        this.clock = clock;
    }

    /**
     * The refusal as the client's protocol writes it: its status (a 529 is sent as 503 where the
     * protocol has no 529) and its envelope.
     *
     * @param protocol the client's, null when none is known (OpenAI's shape)
     */
    public static ErrorReply reply(Protocol protocol, Refusal refusal) {
        return ErrorEnvelope.refusal(
                protocol, refusal.status(), refusal.code(), ClientMessages.bounded(refusal.message()), refusal.type());
    }

    /**
     * Writes a refusal after routing: with {@code Retry-After} (whole seconds, at least 1) when the
     * pool says when a credential recovers.
     */
    static void write(
            HttpServerResponse response, Protocol protocol, Refusal refusal, Instant earliestRecovery, Instant now) {
        if (earliestRecovery != null) {
            long millis = Duration.between(now, earliestRecovery).toMillis();
            response.putHeader("retry-after", Long.toString(Math.max(1, (millis + 999) / 1000)));
        }
        write(response, protocol, refusal);
    }

    /** Writes the refusal and ends the response (nothing counted). */
    static void write(HttpServerResponse response, Protocol protocol, Refusal refusal) {
        ErrorReply reply = reply(protocol, refusal);
        response.setStatusCode(reply.status())
                .putHeader("content-type", "application/json")
                .end(reply.body().toString());
    }

    /**
     * Answers a request refused before routing and counts it: the request metric, and a usage record
     * when its key is known (request logs show the code).
     */
    public void answer(HttpServerResponse response, AccessKeySnapshot key, Protocol protocol, Refusal refusal) {
        write(response, protocol, refusal);
        counted(key, protocol, refusal.status(), refusal.code());
    }

    /** Counts a refusal answered by other means (one that also closes the connection). */
    public void counted(AccessKeySnapshot key, Protocol protocol, int status, String code) {
        metrics.request(protocol, status, code);
        if (key != null) {
            usage.publish(RequestCompleted.refused(
                            EventIds.next(), clock.instant(), protocol, key.accessKeyId(), status, code)
                    .withTeam(key.teamId()));
        }
    }
}
