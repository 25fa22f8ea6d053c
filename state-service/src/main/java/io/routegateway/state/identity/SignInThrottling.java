package io.routegateway.state.identity;

import java.time.Clock;

import jakarta.inject.Singleton;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import io.routegateway.core.signin.SignInThrottle;
import io.routegateway.state.config.StateConfig;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.ApiError;
import io.vertx.core.http.HttpServerRequest;
import org.jboss.logging.Logger;

/**
 * Failed admin sign-ins throttled per source (route-core {@link SignInThrottle}, {@code
 * state.admin.sign-in-throttle.*}). The source is the remote address as Quarkus sees it: the peer,
 * or the forwarded client address only when {@code quarkus.http.proxy.*} trusts the proxy that
 * sent it. A throttled source gets 429 {@value AdminCodes#SIGN_IN_THROTTLED} with {@code
 * Retry-After} before its token is looked at, a correct one included; the start of each lockout is
 * logged once (the source and the count, never a token).
 */
@Singleton
public class SignInThrottling {

    private static final Logger LOG = Logger.getLogger(SignInThrottling.class);

    private final SignInThrottle throttle;
    private final Clock clock;
    private final StateMetrics metrics;

    SignInThrottling(StateConfig config, Clock clock, StateMetrics metrics) {
        StateConfig.SignInThrottle settings = config.admin().signInThrottle();
        this.throttle = new SignInThrottle(new SignInThrottle.Settings(
                settings.enabled(),
                settings.maxFailures(),
                settings.window(),
                settings.lockout(),
                settings.maxSources()));
        this.clock = clock;
        this.metrics = metrics;
    }

    /** The source a request counts under. */
    static String source(HttpServerRequest request) {
        return SignInThrottle.source(
                request == null || request.remoteAddress() == null
                        ? null
                        : request.remoteAddress().hostAddress());
    }

    /** The 429 to answer when {@code source} is throttled now; null when it may authenticate. */
    Response refusal(String source) {
        if (throttle.check(source, clock.instant()) instanceof SignInThrottle.Decision.Throttled throttled) {
            metrics.signInThrottled();
            Response base = ApiError.response(
                    429,
                    AdminCodes.SIGN_IN_THROTTLED,
                    "too many failed sign-ins from this address; try again in " + throttled.retryAfterSeconds() + " s");
            return Response.fromResponse(base)
                    .header(HttpHeaders.RETRY_AFTER, Long.toString(throttled.retryAfterSeconds()))
                    .build();
        }
        return null;
    }

    /** Counts a failed authentication from {@code source}. */
    void failed(String source) {
        metrics.signInFailed();
        SignInThrottle.Failure failure = throttle.failed(source, clock.instant());
        if (failure.lockoutStarted()) {
            LOG.warnf(
                    "admin sign-in throttled for source %s: %d failed sign-ins within %s; refused (429) for %s"
                            + " (state.admin.sign-in-throttle.*)",
                    source,
                    failure.failures(),
                    throttle.settings().window(),
                    throttle.settings().lockout());
        }
    }
}
