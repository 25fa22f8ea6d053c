package io.routegateway.core.forward;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import io.routegateway.core.event.AttemptStep;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.telemetry.FailoverCause;

/**
 * The attempts of one request, in order, for its usage record ({@link AttemptStep}): bounded to
 * {@link AttemptStep#MAX_STEPS} entries however many attempts are made. Past the bound the first
 * {@code MAX_STEPS - 2} attempts and the last one are kept, with one {@link AttemptStep#OMITTED}
 * marker between them counting the rest. Not thread-safe: one request's exchange owns it.
 */
public final class AttemptChain {

    /** Attempts kept from the start of a chain that is cut. */
    static final int HEAD = AttemptStep.HEAD;

    private final List<AttemptStep> head = new ArrayList<>(4);
    private AttemptStep last;
    private int omitted;

    /** Appends one attempt. */
    public void add(AttemptStep step) {
        if (head.size() < HEAD && last == null) {
            head.add(step);
            return;
        }
        if (last != null) {
            omitted++;
        }
        last = step;
    }

    /**
     * The attempt the request ended on was followed by no other: a {@code fail_over} whose routing
     * found nothing more (or hit the credential bound) becomes {@code give_up}.
     */
    public void gaveUp() {
        if (last != null) {
            if (AttemptStep.FAIL_OVER.equals(last.decision())) {
                last = last.withDecision(AttemptStep.GIVE_UP);
            }
            return;
        }
        int end = head.size() - 1;
        if (end >= 0 && AttemptStep.FAIL_OVER.equals(head.get(end).decision())) {
            head.set(end, head.get(end).withDecision(AttemptStep.GIVE_UP));
        }
    }

    public boolean isEmpty() {
        return head.isEmpty() && last == null;
    }

    /** The chain as recorded, null when no attempt was made (old records carry none either). */
    public List<AttemptStep> steps() {
        if (isEmpty()) {
            return null;
        }
        List<AttemptStep> steps = new ArrayList<>(head);
        if (omitted > 0) {
            steps.add(AttemptStep.omission(omitted));
        }
        if (last != null) {
            steps.add(last);
        }
        return List.copyOf(steps);
    }

    /**
     * One attempt's entry.
     *
     * @param verdict the attempt's verdict, already masked ({@code SecretMask})
     * @param decision what the exchange does next ({@link AttemptDecision}); {@link
     *     AttemptDecision#RETURN} is {@code success} for a success and {@code give_up} for a client
     *     error returned as the upstream sent it
     * @param answeredStatus the upstream's status when the verdict carries none (a success)
     * @param masking applied to the upstream text after the verdict's own masking (the credential's
     *     base URL)
     */
    public static AttemptStep step(
            Verdict verdict,
            String credentialId,
            String modelKey,
            Integer answeredStatus,
            long latencyMs,
            AttemptDecision decision,
            UnaryOperator<String> masking) {
        String label = switch (decision) {
            case RETRY_SAME -> AttemptStep.RETRY_SAME;
            case FAIL_OVER -> AttemptStep.FAIL_OVER;
            case RETURN -> verdict instanceof Verdict.Success ? AttemptStep.SUCCESS : AttemptStep.GIVE_UP;
        };
        return step(verdict, credentialId, modelKey, answeredStatus, latencyMs, label, masking);
    }

    /** One attempt's entry with its decision label as it is ({@code give_up} after a committed stream). */
    public static AttemptStep step(
            Verdict verdict,
            String credentialId,
            String modelKey,
            Integer answeredStatus,
            long latencyMs,
            String decision,
            UnaryOperator<String> masking) {
        Integer status = answeredStatus;
        String text = null;
        if (verdict instanceof Verdict.Transient failure) {
            status = failure.status();
            text = blank(failure.body()) ? failure.message() : failure.body();
        } else if (verdict instanceof Verdict.Permanent failure) {
            status = failure.status();
            text = blank(failure.body()) ? failure.message() : failure.body();
        } else if (verdict instanceof Verdict.QuotaExhausted quota) {
            status = quota.status();
            text = blank(quota.body()) ? quota.message() : quota.body();
        } else if (verdict instanceof Verdict.NotAFailure client) {
            status = client.status();
        }
        FailoverCause cause = verdict.isFailure() ? FailoverCause.of(verdict, modelKey) : null;
        if (text != null && masking != null) {
            text = masking.apply(text);
        }
        return new AttemptStep(
                credentialId,
                modelKey,
                status,
                cause == null ? null : cause.kind(),
                cause == null ? null : cause.scope(),
                Math.max(0, latencyMs),
                decision,
                AttemptStep.errorText(text),
                null);
    }

    /** An attempt that ended inside the gateway (answer too large, internal error, client gone). */
    public static AttemptStep ended(
            String credentialId, String modelKey, Integer status, long latencyMs, String reason) {
        return new AttemptStep(
                credentialId, modelKey, status, null, null, Math.max(0, latencyMs), AttemptStep.GIVE_UP, reason, null);
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }
}
