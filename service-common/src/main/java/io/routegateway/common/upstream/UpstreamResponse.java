package io.routegateway.common.upstream;

import java.time.Instant;

import io.routegateway.core.failure.ClientEcho;
import io.routegateway.core.failure.UpstreamOutcome;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.forward.AttemptVerdict;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.quota.ResponseHeaders;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;

/**
 * What one upstream exchange produced: either a complete response (read to the end, or broken
 * before any body byte) with what its verdict is made of, or an open stream whose first chunk has
 * arrived and nothing has been committed to a client yet. The client does not judge the answer:
 * whose credential sent it decides how it is read ({@link AttemptVerdict}).
 */
public sealed interface UpstreamResponse permits UpstreamResponse.Complete, UpstreamResponse.Streaming {

    /**
     * A response read to completion, or an exchange that failed before it could be.
     *
     * @param status null when no response head arrived (connect failure, refused, stall before the
     *     head)
     * @param headers empty when no head arrived
     * @param body everything that was read, empty when nothing was
     * @param outcome what the upstream answered, built from the above
     * @param echo what the request carried, so a marker the upstream merely quotes back is not
     *     evidence
     * @param headNanos {@code System.nanoTime()} span from sending to the response head, -1 without
     *     a head
     * @param oversize the body passed the caller's size cap and was not read to its end (the body
     *     is then empty and the verdict {@link Verdict.NotAFailure})
     */
    record Complete(
            Integer status,
            MultiMap headers,
            Buffer body,
            UpstreamOutcome outcome,
            ClientEcho echo,
            long headNanos,
            boolean oversize)
            implements UpstreamResponse {

        /** The transport error text, null when the exchange completed. */
        public String transportError() {
            return outcome.transportError();
        }

        /** The response headers as route-core reads them (usage-limit signals). */
        public ResponseHeaders responseHeaders() {
            return headers::get;
        }

        /**
         * This answer's verdict for the credential that sent it: {@link AttemptVerdict} of its
         * outcome, echo and headers. An oversize answer is no evidence either way: it is {@link
         * Verdict.NotAFailure}, whatever its status.
         *
         * @param now the moment the answer arrived
         */
        public Verdict verdict(CredentialKind kind, Platform platform, Instant now) {
            if (oversize) {
                return new Verdict.NotAFailure(status);
            }
            return AttemptVerdict.of(outcome, echo, kind, platform, responseHeaders(), now);
        }
    }

    /**
     * A 2xx response whose first body chunk has arrived; the rest waits until {@link
     * UpstreamStream#start} is called. Judge {@link UpstreamStream#firstChunk()} (e.g. {@code
     * SemanticFailureDetector.firstChunkIsFailure}) before committing anything to the client, and
     * {@link UpstreamStream#cancel()} it to fail over.
     */
    record Streaming(UpstreamStream stream) implements UpstreamResponse {}
}
