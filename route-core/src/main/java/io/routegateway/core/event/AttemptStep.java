package io.routegateway.core.event;

import java.util.ArrayList;
import java.util.List;

import io.routegateway.core.text.StorableText;

/**
 * One upstream attempt of a request as its usage record carries it ({@code attempt_chain} of {@code
 * request-completed.v1}): which credential and model key, what came back, how the failure was
 * charged, how long it took and what the gateway did next. Built by route-core {@code
 * io.routegateway.core.forward.AttemptChain}; its text is upstream content, already masked, made
 * storable and cut to {@link #MAX_ERROR_CHARS}.
 *
 * @param credentialId the credential tried, null on the omission marker
 * @param modelKey the model key it was tried under, may be null
 * @param status the upstream's HTTP status, null when none came (transport failure, unbuildable
 *     request)
 * @param failureKind one of the nine failure kind labels, null for a success or a client error the
 *     upstream answered
 * @param failureScope {@code account} or {@code model}: the cooldown layer the failure is charged to,
 *     null when nothing failed
 * @param latencyMs from the attempt's send to its verdict
 * @param decision {@link #SUCCESS}, {@link #RETRY_SAME}, {@link #FAIL_OVER}, {@link #GIVE_UP}, or
 *     {@link #OMITTED} on the marker that stands for attempts cut from a chain over {@link
 *     #MAX_STEPS}
 * @param error the upstream's error text (its body, else the gateway's message), at most {@link
 *     #MAX_ERROR_CHARS} characters and an ellipsis, the credential's secret and base URL masked
 * @param omitted on the marker only: how many attempts it stands for
 */
public record AttemptStep(
        String credentialId,
        String modelKey,
        Integer status,
        String failureKind,
        String failureScope,
        long latencyMs,
        String decision,
        String error,
        Integer omitted) {

    /** The most entries a chain holds, the omission marker included. */
    public static final int MAX_STEPS = 16;

    /** Entries kept from the start of a chain that is cut (the last attempt and the marker follow). */
    public static final int HEAD = MAX_STEPS - 2;

    /** The most characters of upstream text an entry keeps. */
    public static final int MAX_ERROR_CHARS = 300;

    public static final String SUCCESS = "success";
    public static final String RETRY_SAME = "retry_same";
    public static final String FAIL_OVER = "fail_over";
    public static final String GIVE_UP = "give_up";
    public static final String OMITTED = "omitted";

    /** The marker standing for {@code count} attempts cut from the middle of a chain. */
    public static AttemptStep omission(int count) {
        return new AttemptStep(null, null, null, null, null, 0, OMITTED, null, count);
    }

    /** This entry with another decision, everything else kept. */
    public AttemptStep withDecision(String decision) {
        return new AttemptStep(
                credentialId, modelKey, status, failureKind, failureScope, latencyMs, decision, error, omitted);
    }

    /** Upstream text as an entry keeps it: storable (no NUL, no lone surrogate) and cut to the bound. */
    public static String errorText(String text) {
        if (text == null) {
            return null;
        }
        return StorableText.truncate(StorableText.sanitise(text), AttemptStep.MAX_ERROR_CHARS);
    }

    /**
     * A chain as it arrives from another process, made storable: every text repaired and cut, ids
     * and model keys cut to the screen's bounds, and a chain over the bound cut as {@code AttemptChain.steps()}
     * cuts it ({@code io.routegateway.core.forward.AttemptChain}). Null stays null; a chain that already fits is returned as it is.
     */
    public static List<AttemptStep> screen(List<AttemptStep> chain) {
        if (chain == null) {
            return null;
        }
        boolean changed = false;
        List<AttemptStep> out = new ArrayList<>(Math.min(chain.size(), AttemptStep.MAX_STEPS));
        for (AttemptStep step : chain) {
            if (step == null) {
                changed = true;
                continue;
            }
            AttemptStep fit = new AttemptStep(
                    short_(step.credentialId(), InboundScreen.MAX_IDENTIFIER_CHARS),
                    short_(step.modelKey(), InboundScreen.MAX_MODEL_CHARS),
                    step.status(),
                    short_(step.failureKind(), 64),
                    short_(step.failureScope(), 16),
                    Math.max(0, step.latencyMs()),
                    short_(step.decision(), 16),
                    errorText(step.error()),
                    step.omitted());
            changed |= !fit.equals(step);
            out.add(fit);
        }
        if (out.size() > AttemptStep.MAX_STEPS) {
            int cut = out.size() - HEAD - 1;
            List<AttemptStep> bounded = new ArrayList<>(out.subList(0, HEAD));
            bounded.add(AttemptStep.omission(cut));
            bounded.add(out.get(out.size() - 1));
            return List.copyOf(bounded);
        }
        return changed ? List.copyOf(out) : chain;
    }

    private static String short_(String text, int max) {
        return StorableText.truncate(StorableText.sanitise(text), max);
    }
}
