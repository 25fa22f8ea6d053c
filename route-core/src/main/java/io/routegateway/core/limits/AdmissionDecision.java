package io.routegateway.core.limits;

/**
 * What admission says of one request.
 *
 * @param admitted whether the request may go on (to routing)
 * @param scope whose limit refused it (null when admitted)
 * @param field which limit refused it (null when admitted)
 * @param retryAfterSeconds the {@code Retry-After} of a refusal: when the window frees (null when
 *     admitted, or for a spent lifetime budget, which never frees)
 * @param headers the {@code x-ratelimit-*} headers of the answer, admitted or refused ({@link
 *     RateLimitHeaders#NONE} when neither rpm nor tpm is limited)
 */
public record AdmissionDecision(
        boolean admitted, LimitScope scope, LimitField field, Long retryAfterSeconds, RateLimitHeaders headers) {

    /** The decision for a key with no limits whose team has none: no lease, no headers. */
    public static final AdmissionDecision UNLIMITED =
            new AdmissionDecision(true, null, null, null, RateLimitHeaders.NONE);

    public AdmissionDecision {
        headers = headers == null ? RateLimitHeaders.NONE : headers;
        if (admitted != (field == null) || (scope == null) != (field == null)) {
            throw new IllegalArgumentException("a refusal has a scope and a field, an admission neither");
        }
    }

    public static AdmissionDecision admit(RateLimitHeaders headers) {
        return new AdmissionDecision(true, null, null, null, headers);
    }

    public static AdmissionDecision refuse(
            LimitScope scope, LimitField field, Long retryAfterSeconds, RateLimitHeaders headers) {
        return new AdmissionDecision(false, scope, field, retryAfterSeconds, headers);
    }

    /** True for {@link #UNLIMITED}: nothing was counted and no lease is to be opened. */
    public boolean isUnlimited() {
        return this == UNLIMITED;
    }

    /** The {@code error.code} of a refusal; null when admitted. */
    public AdmissionCode code() {
        return field == null ? null : field.code();
    }

    /** A refusal's message for the client: fixed text naming the limit, never any request content. */
    public String message() {
        if (admitted) {
            return null;
        }
        String text = "The " + scope.label() + "'s " + field.description() + " is reached";
        if (field == LimitField.MAX_BUDGET) {
            text = "The " + scope.label() + "'s budget is spent"
                    + (retryAfterSeconds == null ? "" : " for the current budget window");
        } else if (field == LimitField.FAIR_SHARE) {
            text = "The " + scope.label() + " is at its fair share of the contended pool";
        }
        return retryAfterSeconds == null ? text : text + "; retry after " + retryAfterSeconds + " s";
    }
}
