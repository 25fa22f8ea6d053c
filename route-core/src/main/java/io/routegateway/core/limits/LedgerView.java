package io.routegateway.core.limits;

import java.time.Instant;
import java.util.Map;

/**
 * What {@link Admission}, {@link FairShare} and {@link CredentialCapacity} read of the cluster's
 * admissions, per subject. {@link AdmissionLedger} is the implementation; the interface lets the
 * decisions be tested against fixed numbers.
 *
 * <p>Every answer is "as of {@code now}"; an unknown subject (or a null id) has nothing counted.
 * Times of the {@code ...AtMillis} answers are epoch milliseconds, so the hot path allocates no
 * {@link Instant}.
 */
public interface LedgerView {

    /** The sliding window of rpm and tpm. */
    long WINDOW_MILLIS = 60_000L;

    /** Leases opened in the last 60 s: {@code now - 60 s < opened_at}. */
    long requests(SubjectKind kind, String id, Instant now);

    /** Open leases not yet expired: the parallel slots held. */
    long inFlight(SubjectKind kind, String id, Instant now);

    /**
     * Tokens of the last 60 s: settled tokens of leases closed in the window (their reservation when
     * the close settled none) plus the reservations of open leases.
     */
    long tokens(SubjectKind kind, String id, Instant now);

    /** Of {@link #tokens}, the reservations of open leases alone (they leave at close, not by time). */
    long openReservations(SubjectKind kind, String id, Instant now);

    /**
     * When the {@code n}-th (0-based, oldest first) of the requests counted by {@link #requests}
     * leaves the window; {@code now} when there is no such request.
     */
    long requestLeavesAtMillis(SubjectKind kind, String id, Instant now, long n);

    /**
     * When the settled tokens in the window fall to at most {@code target} (≥ 0) as they age out,
     * oldest first; {@code now} when they already are.
     */
    long settledTokensFallToAtMillis(SubjectKind kind, String id, Instant now, long target);

    /** Costs (micro-USD) of leases closed strictly after {@code after}, as far back as retained. */
    long closedCostAfter(SubjectKind kind, String id, Instant after, Instant now);

    /**
     * The spend (micro-USD) of a KEY or TEAM in the budget window {@code [windowStart, windowEnd)}
     * ({@code windowEnd} null = lifetime): the subject's newest {@code spend.v1} when it is of this
     * window, plus the costs closed after its {@code as_of} (and inside the window).
     */
    long spendMicros(SubjectKind kind, String id, Instant windowStart, Instant windowEnd, Instant now);

    /**
     * Teams with a REQUEST lease opened after {@code since} or open now, each with its {@link
     * #inFlight} count: the active teams of {@link FairShare}.
     */
    Map<String, Long> teamsActiveSince(Instant since, Instant now);
}
