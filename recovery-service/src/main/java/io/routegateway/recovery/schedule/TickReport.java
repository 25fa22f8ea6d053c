package io.routegateway.recovery.schedule;

/**
 * What one tick did.
 *
 * @param leader whether this replica held the leader lock and walked the accounts
 * @param walked accounts read: non-archived ones automation may touch (not revoked, paused or blacklisted)
 * @param inRecovery accounts that need recovery and have a recovery mode
 * @param reactivated scheduled reactivations published
 * @param probed healthcheck probes run
 * @param failed accounts whose handling failed (logged; the others went on)
 */
public record TickReport(boolean leader, int walked, int inRecovery, int reactivated, int probed, int failed) {

    static final TickReport STANDBY = new TickReport(false, 0, 0, 0, 0, 0);
}
