package io.routegateway.recovery.probe;

import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.common.upstream.UpstreamClient;
import io.routegateway.common.upstream.UpstreamTimeouts;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.EventIds;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.failure.SecretMask;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.forward.AttemptVerdict;
import io.routegateway.core.recovery.ModelTestOutcome;
import io.routegateway.core.upstream.UpstreamRequest;
import io.routegateway.core.upstream.UpstreamRequests;
import io.routegateway.recovery.config.RecoveryServiceConfig;
import io.routegateway.recovery.metrics.RecoveryMetrics;
import io.routegateway.recovery.publish.EventPublisher;
import io.routegateway.recovery.repository.CredentialRecord;
import io.smallrye.mutiny.Uni;
import org.jboss.logging.Logger;

/**
 * Runs one model connectivity test against one account — the smallest real generation request,
 * built, sent and judged exactly as forwarding does ({@link AttemptVerdict}) — and publishes what
 * it means: the outcome
 * event on {@code route.outcomes} and a probe usage record on {@code route.usage}. Used by the
 * healthcheck mode and by the test API alike; both are explicit tests against a single account,
 * and a healthcheck's pass says it was automatic (it leaves a pause or a blacklist to a person).
 */
@ApplicationScoped
public class ModelTestService {

    /** Why a test ran, as the {@code trigger} tag of the test metrics. */
    public enum Trigger {
        HEALTHCHECK,
        MANUAL;

        String tag() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** A probe's pass is automation: it never lifts an account pause or a blacklist. */
        boolean automatic() {
            return this == HEALTHCHECK;
        }
    }

    private static final Logger LOG = Logger.getLogger(ModelTestService.class);

    private final UpstreamClient upstream;
    private final SecretBox secrets;
    private final EventPublisher publisher;
    private final Clock clock;
    private final RecoveryMetrics metrics;
    private final UpstreamTimeouts timeouts;

    ModelTestService(
            UpstreamClient upstream,
            SecretBox secrets,
            EventPublisher publisher,
            Clock clock,
            RecoveryMetrics metrics,
            RecoveryServiceConfig config) {
        this.upstream = upstream;
        this.secrets = secrets;
        this.publisher = publisher;
        this.clock = clock;
        this.metrics = metrics;
        this.timeouts = UpstreamTimeouts.of(
                config.upstream().connectTimeout(), config.upstream().readGapTimeout(), "recovery.upstream");
    }

    /**
     * Tests the account now (paused and revoked accounts included: an explicit test is how a user
     * finds out whether they came back) and publishes the outcome before answering.
     *
     * @param requestedModel the requested model name, null for the account's default model
     * @return a failed Uni with {@link io.routegateway.core.policy.ValidationException} when the account does not serve the
     *     model, {@link SecretUnreadableException} when its secret does not open; nothing is sent or
     *     published then
     */
    public Uni<ModelTestReport> test(CredentialRecord credential, String requestedModel, Trigger trigger) {
        TestTarget target;
        UpstreamRequest request;
        String secret;
        try {
            target = TestTarget.resolve(credential, requestedModel);
            secret = openSecret(credential);
            // the same request a gateway sends: a Codex official account is named by its account id
            request = UpstreamRequests.modelTest(
                    credential.platform(),
                    credential.kind(),
                    credential.baseUrl(),
                    secret,
                    target.upstreamModel(),
                    credential.oauthAccountId());
        } catch (RuntimeException e) {
            return Uni.createFrom().failure(e);
        }
        long started = System.nanoTime();
        return upstream.exchange(request, timeouts, true).chain(response -> {
            long latencyMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            Instant now = clock.instant();
            // judged as a request through this account is, so an official account's usage limit
            // cools it until the reset in a test too
            Verdict judged = AttemptVerdict.of(
                    response.outcome(),
                    response.echo(),
                    credential.kind(),
                    credential.platform(),
                    response.responseHeaders(),
                    now);
            // upstream text quoting the key never reaches the event, the rows or the answer
            Verdict verdict = SecretMask.apply(judged, secret);
            return publish(credential, target, response.status(), verdict, latencyMs, trigger, now);
        });
    }

    private Uni<ModelTestReport> publish(
            CredentialRecord credential,
            TestTarget target,
            Integer status,
            Verdict verdict,
            long latencyMs,
            Trigger trigger,
            Instant now) {
        ModelTestOutcome outcome = ModelTestOutcome.of(
                verdict, status, credential.id(), target.modelKey(), true, trigger.automatic(), EventIds.next(), now);
        RequestCompleted usage = RequestCompleted.probe(
                EventIds.next(),
                now,
                UpstreamRequests.testProtocol(credential.platform()),
                credential.id(),
                target.requestedModel(),
                target.modelKey(),
                status == null ? 0 : status,
                latencyMs,
                outcome.success());
        ModelTestReport report = new ModelTestReport(
                outcome.success(), status, latencyMs, outcome.kindLabel(), outcome.message(), target.requestedModel());
        metrics.modelTest(
                trigger.tag(),
                outcome.success() ? "success" : outcome.outcomeEvent().isPresent() ? "failure" : "not_a_failure");
        LOG.infof(
                "Model test (%s) of credential %s, model %s: success=%s status=%s kind=%s",
                trigger.tag(),
                credential.id(),
                target.requestedModel(),
                outcome.success(),
                status,
                outcome.kindLabel());
        Uni<Void> outcomeSent = outcome.outcomeEvent()
                .map(publisher::outcome)
                .orElseGet(() -> Uni.createFrom().voidItem());
        return outcomeSent.chain(() -> publisher.usage(usage)).replaceWith(report);
    }

    private String openSecret(CredentialRecord credential) {
        try {
            return secrets.open(
                    new SecretBox.Binding(credential.id(), credential.platform().wire(), credential.baseUrl()),
                    credential.encryptedSecret());
        } catch (IllegalArgumentException e) {
            throw new SecretUnreadableException(credential.id());
        }
    }
}
