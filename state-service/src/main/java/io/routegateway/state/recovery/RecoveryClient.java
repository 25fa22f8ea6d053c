package io.routegateway.state.recovery;

import java.net.URI;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.quarkus.runtime.Startup;
import io.routegateway.common.auth.InternalToken;
import io.routegateway.state.config.StateConfig;
import io.smallrye.faulttolerance.api.AsynchronousNonBlocking;
import io.smallrye.mutiny.Uni;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * Calls recovery-service's test API at {@code state.recovery-url}. A model test waits for a real
 * upstream generation, so the call is bounded by a fault-tolerance timeout of {@value
 * #TIMEOUT_SECONDS} s (override in seconds: {@code
 * quarkus.fault-tolerance."io.routegateway.state.recovery.RecoveryClient/test".timeout.value}); the
 * HTTP client's own read timeout sits above it so the fault-tolerance timeout is the one that fires.
 * Error statuses come back as responses, not exceptions. Every call presents the internal token
 * ({@code route.internal-token}); created at start, so state-service does not start without one.
 */
@Startup
@ApplicationScoped
public class RecoveryClient {

    static final long TIMEOUT_SECONDS = 60;
    static final long CONNECT_TIMEOUT_SECONDS = 5;

    private final RecoveryRestClient rest;
    private final InternalToken token;

    RecoveryClient(StateConfig config, InternalToken token) {
        this.token = token;
        this.rest = QuarkusRestClientBuilder.newBuilder()
                .baseUri(URI.create(config.recoveryUrl()))
                .connectTimeout(CONNECT_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .readTimeout(TIMEOUT_SECONDS * 2, TimeUnit.SECONDS)
                .disableDefaultMapper(true)
                .build(RecoveryRestClient.class);
    }

    /** Fails with {@code TimeoutException} after the timeout, or the transport's exception when recovery-service is down. */
    @Timeout(value = TIMEOUT_SECONDS, unit = ChronoUnit.SECONDS)
    @AsynchronousNonBlocking
    public Uni<RestResponse<JsonNode>> test(String credentialId, String model) {
        return rest.test(token.authorization(), credentialId, new ModelTestInput(model));
    }
}
