package io.routegateway.core.forward;

import java.time.Instant;

import io.routegateway.core.bridge.BridgeException;
import io.routegateway.core.failure.ClientEcho;
import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.failure.OutcomeClassifier;
import io.routegateway.core.failure.UpstreamOutcome;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.quota.ResponseHeaders;
import io.routegateway.core.quota.UsageLimits;

/**
 * The verdict of one upstream attempt, from everything that decides it: what the upstream answered
 * ({@link UpstreamOutcome}: status, body, stream end, transport error, model test), what the client
 * sent ({@link ClientEcho}), whose credential sent it (kind and platform), the response headers,
 * the moment the answer arrived, and whether a protocol bridge could convert it. Forwarding and
 * model tests both take their verdict from here, so one upstream answer is judged the same way
 * wherever it arrives. Pure: {@code now} is passed in.
 *
 * <p>The order, each step seeing the previous one's verdict:
 *
 * <ol>
 *   <li>{@link OutcomeClassifier#classify(UpstreamOutcome, ClientEcho)}: the upstream's answer on
 *       its own (transport, status, quota and permanent markers, semantic 2xx failures, stream
 *       truncation);
 *   <li>{@link UsageLimits#refine}: on an official account, a transient or quota failure that
 *       carries its platform's usage-limit signal (headers or error fields) becomes a {@link
 *       Verdict.QuotaExhausted} with the reset, so the account cools until the window resets; api
 *       credentials are never refined;
 *   <li>the bridge: an answer the bridge could not convert ({@link BridgeFailure}) is a {@code
 *       response_transform} failure, but only in place of a {@link Verdict.Success}: a failing
 *       answer is judged by what the upstream said, not by the bridge's trouble reading it.
 * </ol>
 *
 * (This sits above {@code failure} and {@code quota}, which {@code UsageLimits} already joins, so
 * the leaf package {@code failure} keeps no dependency on either.)
 */
public final class AttemptVerdict {

    private AttemptVerdict() {}

    /**
     * The bridge's reverse conversion of an upstream answer failed.
     *
     * @param bridgeLabel the bridge as route check and logs show it ({@code Bridge#label()})
     * @param why what could not be converted: a {@link BridgeException}'s message, otherwise the
     *     exception's class name (an unexpected exception's message may quote the answer)
     */
    public record BridgeFailure(String bridgeLabel, String why) {

        public static BridgeFailure of(String bridgeLabel, RuntimeException failure) {
            String why = failure instanceof BridgeException
                    ? failure.getMessage()
                    : failure.getClass().getSimpleName();
            return new BridgeFailure(bridgeLabel, why);
        }

        /**
         * The {@code response_transform} failure: model scope, and never retried on the same
         * credential (the same answer would not convert either).
         *
         * @param status the upstream status of the answer, null when none
         */
        public Verdict.Transient verdict(Integer status) {
            return new Verdict.Transient(
                    FailureKind.RESPONSE_TRANSFORM,
                    status,
                    "the bridge " + bridgeLabel + " could not convert the upstream's answer: " + why,
                    null,
                    false);
        }
    }

    /**
     * The verdict of an attempt whose answer needed no conversion, or whose conversion has not run
     * yet (a bridge converts only a {@link Verdict.Success}).
     *
     * @param outcome what the upstream answered
     * @param echo what the client sent in this attempt's request
     * @param kind the credential's kind: only official accounts read usage-limit signals
     * @param platform the credential's platform: which usage-limit signal to read
     * @param headers the response headers, {@link ResponseHeaders#NONE} when no head arrived
     * @param now the moment the answer arrived: usage-limit resets must lie after it
     */
    public static Verdict of(
            UpstreamOutcome outcome,
            ClientEcho echo,
            CredentialKind kind,
            Platform platform,
            ResponseHeaders headers,
            Instant now) {
        return of(outcome, echo, kind, platform, headers, now, null);
    }

    /**
     * The verdict of an attempt, its bridge conversion included.
     *
     * @param bridgeFailure why the bridge could not convert the answer, null when it could (or
     *     there was no bridge)
     * @see #of(UpstreamOutcome, ClientEcho, CredentialKind, Platform, ResponseHeaders, Instant)
     */
    public static Verdict of(
            UpstreamOutcome outcome,
            ClientEcho echo,
            CredentialKind kind,
            Platform platform,
            ResponseHeaders headers,
            Instant now,
            BridgeFailure bridgeFailure) {
        ClientEcho sent = echo == null ? ClientEcho.NONE : echo;
        Verdict classified = OutcomeClassifier.classify(outcome, sent);
        Verdict refined =
                UsageLimits.refine(classified, kind, platform, outcome.status(), headers, outcome.body(), now, sent);
        return afterConversion(refined, outcome.status(), bridgeFailure);
    }

    /**
     * The last step alone, for a caller that converts only after judging the upstream's answer: a
     * conversion failure replaces a success and nothing else.
     *
     * @param upstreamVerdict the verdict of the upstream's answer ({@link #of} without a bridge
     *     failure)
     * @param status the upstream status of the answer, null when none
     * @param bridgeFailure why the bridge could not convert it, null when it could
     */
    public static Verdict afterConversion(Verdict upstreamVerdict, Integer status, BridgeFailure bridgeFailure) {
        if (bridgeFailure != null && upstreamVerdict instanceof Verdict.Success) {
            return bridgeFailure.verdict(status);
        }
        return upstreamVerdict;
    }
}
