package io.routegateway.core.limits;

import java.time.Instant;
import java.util.Map;

/**
 * The admission decision for one request, pure: the key's and the team's limits against what
 * {@link LedgerView} counts for each. Each limit is checked against its own subject's counter (the
 * key's rpm against the key's requests, the team's against all its keys'), which is what "the
 * tighter of the two, field by field" means once several keys share a team. Order, first refusal
 * wins:
 *
 * <ol>
 *   <li><b>budget</b> ({@code budget_exceeded}): the key's, then the team's, each in its own window
 *       ({@link BudgetWindow}); refused when the window's spend ≥ max_budget (a budget of 0 admits
 *       nothing). Retry-After: until the window ends; none for a lifetime budget.
 *   <li><b>rpm</b> ({@code rate_limit_exceeded}): refused when the requests opened in the last 60 s
 *       ≥ rpm_limit. Retry-After: until enough of them leave the window that one more fits.
 *   <li><b>tpm</b> ({@code rate_limit_exceeded}): admitted iff tokens used + this request's
 *       reservation (capped at the limit) ≤ tpm_limit. Retry-After: until enough settled tokens leave
 *       the window; 1 s when the open reservations alone are in the way (they leave when their
 *       requests end, soon but at no known time).
 *   <li><b>parallel</b> ({@code concurrency_limit_exceeded}): refused when open leases ≥
 *       max_parallel_requests. Retry-After: 1 s — a slot frees when any running request ends,
 *       usually within seconds; the earliest lease expiry is only the bound for a crashed holder
 *       and would make clients wait up to a minute for nothing.
 *   <li><b>fair share</b> ({@code concurrency_limit_exceeded}): {@link FairShare}, when the request
 *       has a team with a request in flight and a bounded pool: a team at or above its weighted
 *       share only borrows the slots no other active team's share claims. Retry-After: 1 s, as
 *       parallel.
 * </ol>
 *
 * The answer carries {@link RateLimitHeaders} whenever the key or its team has an rpm or tpm limit.
 * Cost: a handful of look-ups and binary searches, no allocation beyond the decision and its
 * headers, except a map of active teams when a team with requests in flight asks a bounded pool.
 */
public final class Admission {

    private static final long PARALLEL_RETRY_SECONDS = 1;
    private static final long WINDOW_SECONDS = LedgerView.WINDOW_MILLIS / 1000;

    private Admission() {}

    public static AdmissionDecision decide(Instant now, AdmissionRequest request, LedgerView view) {
        if (request.isUnlimited()) {
            return AdmissionDecision.UNLIMITED;
        }
        Limits key = request.keyLimits();
        Limits team = request.teamLimits();
        String keyId = request.accessKeyId();
        String teamId = request.teamId();
        long reservation = request.reservedTokens();
        long nowMillis = now.toEpochMilli();

        long keyRequests = key.rpmLimit() == null ? 0 : view.requests(SubjectKind.KEY, keyId, now);
        long teamRequests = team.rpmLimit() == null ? 0 : view.requests(SubjectKind.TEAM, teamId, now);
        long keyTokens = key.tpmLimit() == null ? 0 : view.tokens(SubjectKind.KEY, keyId, now);
        long teamTokens = team.tpmLimit() == null ? 0 : view.tokens(SubjectKind.TEAM, teamId, now);

        LimitScope scope = null;
        LimitField field = null;
        Long retry = null;

        // 1. budgets, each in its own window
        if (key.maxBudget() != null) {
            BudgetWindow window = BudgetWindow.of(key.budgetDuration(), now, request.zone());
            if (view.spendMicros(SubjectKind.KEY, keyId, window.start(), window.end(), now) >= key.maxBudgetMicros()) {
                scope = LimitScope.KEY;
                field = LimitField.MAX_BUDGET;
                retry = window.end() == null ? null : seconds(window.end().toEpochMilli() - nowMillis, Long.MAX_VALUE);
            }
        }
        if (field == null && team.maxBudget() != null) {
            BudgetWindow window = BudgetWindow.of(team.budgetDuration(), now, request.zone());
            if (view.spendMicros(SubjectKind.TEAM, teamId, window.start(), window.end(), now)
                    >= team.maxBudgetMicros()) {
                scope = LimitScope.TEAM;
                field = LimitField.MAX_BUDGET;
                retry = window.end() == null ? null : seconds(window.end().toEpochMilli() - nowMillis, Long.MAX_VALUE);
            }
        }
        // 2. requests per minute
        if (field == null && key.rpmLimit() != null && keyRequests >= key.rpmLimit()) {
            scope = LimitScope.KEY;
            field = LimitField.RPM_LIMIT;
            retry = rpmRetry(view, SubjectKind.KEY, keyId, now, keyRequests, key.rpmLimit());
        }
        if (field == null && team.rpmLimit() != null && teamRequests >= team.rpmLimit()) {
            scope = LimitScope.TEAM;
            field = LimitField.RPM_LIMIT;
            retry = rpmRetry(view, SubjectKind.TEAM, teamId, now, teamRequests, team.rpmLimit());
        }
        // 3. tokens per minute
        if (field == null && key.tpmLimit() != null && keyTokens + reservation > key.tpmLimit()) {
            scope = LimitScope.KEY;
            field = LimitField.TPM_LIMIT;
            retry = tpmRetry(view, SubjectKind.KEY, keyId, now, key.tpmLimit(), reservation);
        }
        if (field == null && team.tpmLimit() != null && teamTokens + reservation > team.tpmLimit()) {
            scope = LimitScope.TEAM;
            field = LimitField.TPM_LIMIT;
            retry = tpmRetry(view, SubjectKind.TEAM, teamId, now, team.tpmLimit(), reservation);
        }
        // 4. parallel requests
        if (field == null
                && key.maxParallelRequests() != null
                && view.inFlight(SubjectKind.KEY, keyId, now) >= key.maxParallelRequests()) {
            scope = LimitScope.KEY;
            field = LimitField.MAX_PARALLEL_REQUESTS;
            retry = PARALLEL_RETRY_SECONDS;
        }
        if (field == null
                && team.maxParallelRequests() != null
                && view.inFlight(SubjectKind.TEAM, teamId, now) >= team.maxParallelRequests()) {
            scope = LimitScope.TEAM;
            field = LimitField.MAX_PARALLEL_REQUESTS;
            retry = PARALLEL_RETRY_SECONDS;
        }
        // 5. fair share of a contended pool
        PoolLoad pool = request.pool();
        if (field == null
                && teamId != null
                && pool != null
                && pool.isBounded()
                && view.inFlight(SubjectKind.TEAM, teamId, now) > 0) {
            // a team with nothing in flight is under any share: admitted without counting the others
            Map<String, Long> active = view.teamsActiveSince(now.minusMillis(LedgerView.WINDOW_MILLIS), now);
            if (!FairShare.admits(
                    pool.capacity(),
                    pool.inFlight(),
                    active,
                    pool.weights(),
                    pool.sharesPool(),
                    teamId,
                    request.teamWeight())) {
                scope = LimitScope.TEAM;
                field = LimitField.FAIR_SHARE;
                retry = PARALLEL_RETRY_SECONDS;
            }
        }

        boolean admitted = field == null;
        RateLimitHeaders headers =
                headers(view, now, request, admitted, keyRequests, teamRequests, keyTokens, teamTokens);
        return admitted ? AdmissionDecision.admit(headers) : AdmissionDecision.refuse(scope, field, retry, headers);
    }

    private static long rpmRetry(LedgerView view, SubjectKind kind, String id, Instant now, long count, long limit) {
        // One more fits once count - limit + 1 requests have left: the (count - limit)-th oldest.
        long leaves = view.requestLeavesAtMillis(kind, id, now, count - limit);
        return seconds(leaves - now.toEpochMilli(), WINDOW_SECONDS);
    }

    private static long tpmRetry(
            LedgerView view, SubjectKind kind, String id, Instant now, long limit, long reservation) {
        long target = limit - reservation - view.openReservations(kind, id, now);
        if (target < 0) {
            return PARALLEL_RETRY_SECONDS;
        }
        long frees = view.settledTokensFallToAtMillis(kind, id, now, target);
        return seconds(frees - now.toEpochMilli(), WINDOW_SECONDS);
    }

    /** Whole seconds, rounded up, at least 1 and at most {@code max}. */
    static long seconds(long millis, long max) {
        long whole = millis <= 0 ? 1 : (millis + 999) / 1000;
        return Math.min(Math.max(1, whole), max);
    }

    private static RateLimitHeaders headers(
            LedgerView view,
            Instant now,
            AdmissionRequest request,
            boolean admitted,
            long keyRequests,
            long teamRequests,
            long keyTokens,
            long teamTokens) {
        Limits key = request.keyLimits();
        Limits team = request.teamLimits();
        if (key.rpmLimit() == null && team.rpmLimit() == null && key.tpmLimit() == null && team.tpmLimit() == null) {
            return RateLimitHeaders.NONE;
        }
        long nowMillis = now.toEpochMilli();
        long counted = admitted ? 1 : 0;

        long limitRequests = RateLimitHeaders.NOT_SET;
        long remainingRequests = RateLimitHeaders.NOT_SET;
        long resetRequests = RateLimitHeaders.NOT_SET;
        SubjectKind requestsKind = tighter(key.rpmLimit(), keyRequests, team.rpmLimit(), teamRequests);
        if (requestsKind != null) {
            boolean isKey = requestsKind == SubjectKind.KEY;
            long limit = isKey ? key.rpmLimit() : team.rpmLimit();
            long count = isKey ? keyRequests : teamRequests;
            limitRequests = limit;
            remainingRequests = Math.max(0, limit - count - counted);
            if (admitted) {
                resetRequests = LedgerView.WINDOW_MILLIS;
            } else {
                String id = isKey ? request.accessKeyId() : request.teamId();
                resetRequests = Math.max(0, view.requestLeavesAtMillis(requestsKind, id, now, count - 1) - nowMillis);
            }
        }

        long limitTokens = RateLimitHeaders.NOT_SET;
        long remainingTokens = RateLimitHeaders.NOT_SET;
        long resetTokens = RateLimitHeaders.NOT_SET;
        SubjectKind tokensKind = tighter(key.tpmLimit(), keyTokens, team.tpmLimit(), teamTokens);
        if (tokensKind != null) {
            boolean isKey = tokensKind == SubjectKind.KEY;
            long limit = isKey ? key.tpmLimit() : team.tpmLimit();
            long used = (isKey ? keyTokens : teamTokens) + (admitted ? request.reservedTokens() : 0);
            limitTokens = limit;
            remainingTokens = Math.max(0, limit - used);
            String id = isKey ? request.accessKeyId() : request.teamId();
            resetTokens = Math.max(0, view.settledTokensFallToAtMillis(tokensKind, id, now, 0) - nowMillis);
        }
        return new RateLimitHeaders(
                limitRequests, remainingRequests, resetRequests, limitTokens, remainingTokens, resetTokens);
    }

    /**
     * Of the key's and the team's limit of one kind, the one with less left (the smaller limit on a
     * tie): KEY or TEAM, or null when neither is set.
     */
    private static SubjectKind tighter(Number keyLimit, long keyUsed, Number teamLimit, long teamUsed) {
        if (keyLimit == null) {
            return teamLimit == null ? null : SubjectKind.TEAM;
        }
        if (teamLimit == null) {
            return SubjectKind.KEY;
        }
        long keyLeft = keyLimit.longValue() - keyUsed;
        long teamLeft = teamLimit.longValue() - teamUsed;
        if (keyLeft != teamLeft) {
            return keyLeft < teamLeft ? SubjectKind.KEY : SubjectKind.TEAM;
        }
        return keyLimit.longValue() <= teamLimit.longValue() ? SubjectKind.KEY : SubjectKind.TEAM;
    }
}
