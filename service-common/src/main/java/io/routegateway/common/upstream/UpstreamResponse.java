package io.routegateway.common.upstream;

import io.routegateway.core.failure.OutcomeClassifier;
import io.routegateway.core.failure.UpstreamOutcome;
import io.routegateway.core.failure.Verdict;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;

/**
 * What one upstream exchange produced: either a complete response (read to the end, or broken
 * before any body byte) with its classified outcome, or an open stream whose first chunk has
 * arrived and nothing has been committed to a client yet.
 */
public sealed interface UpstreamResponse permits UpstreamResponse.Complete, UpstreamResponse.Streaming {

    /**
     * A response read to completion, or an exchange that failed before it could be.
     *
     * @param status null when no response head arrived (connect failure, refused, stall before the
     *     head)
     * @param headers empty when no head arrived
     * @param body everything that was read, empty when nothing was
     * @param outcome the classifier's input, built from the above
     * @param verdict {@link OutcomeClassifier#classify(UpstreamOutcome)} of {@code outcome}
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
            Verdict verdict,
            long headNanos,
            boolean oversize)
            implements UpstreamResponse {

        /** The transport error text, null when the exchange completed. */
        public String transportError() {
            return outcome.transportError();
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
