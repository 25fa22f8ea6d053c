package io.routegateway.core.limits;

import io.routegateway.core.event.SpendSnapshot;

/** What a counter of {@link AdmissionLedger} belongs to; ids of different kinds never mix. */
public enum SubjectKind {
    /** An AccessKey: its REQUEST leases. */
    KEY,
    /** A team: the REQUEST leases of its keys. */
    TEAM,
    /** An upstream credential: its ATTEMPT leases. */
    CREDENTIAL;

    /** The kind of a {@link SpendSnapshot#subject()}, or null when it is neither {@code key} nor {@code team}. */
    public static SubjectKind ofSpendSubject(String subject) {
        if (SpendSnapshot.KEY.equals(subject)) {
            return KEY;
        }
        if (SpendSnapshot.TEAM.equals(subject)) {
            return TEAM;
        }
        return null;
    }
}
