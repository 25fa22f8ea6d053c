package io.routegateway.state.outcome;

import java.io.IOException;
import java.util.concurrent.TimeoutException;

import io.vertx.core.VertxException;
import io.vertx.pgclient.PgException;

/**
 * What a failure to store a record says about it: a passing outage (retry until it passes), the
 * record's own fault (dead-letter it now), or neither known (retry a few times, then dead-letter).
 * Decided from the first telling cause in the chain; pure, so every consumer decides alike.
 */
public final class Failures {

    /** How a consumer handles a failure. */
    public enum Verdict {
        /** The connection or the server is the problem: retry with back-off for as long as it takes. */
        TRANSIENT,
        /** This record can never be stored: dead-letter it at once. */
        RECORD,
        /** Not known to be either: retry {@link #BOUNDED_RETRIES} times, then dead-letter. */
        UNKNOWN
    }

    /** Retries of an {@link Verdict#UNKNOWN} failure before the record is dead-lettered. */
    public static final int BOUNDED_RETRIES = 3;

    private Failures() {}

    /**
     * {@link Verdict#TRANSIENT}: connection exceptions, timeouts, other reactive-client errors and
     * SQLSTATE classes 08, 40 (serialization, deadlock), 53 (resources), 57 (operator intervention,
     * e.g. a restart) and 55P03 (lock not available). {@link Verdict#RECORD}: a {@link
     * PoisonMessageException}, SQLSTATE class 22 (data exception, e.g. 22021 for U+0000), 23
     * (integrity constraint) and 54 (program limit, e.g. an index row too large). Everything else
     * (another SQLSTATE, a bug) is {@link Verdict#UNKNOWN}.
     */
    public static Verdict classify(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof PoisonMessageException) {
                return Verdict.RECORD;
            }
            if (cause instanceof IOException || cause instanceof TimeoutException) {
                return Verdict.TRANSIENT;
            }
            if (cause instanceof PgException pg) {
                return classifySqlState(pg.getSqlState());
            }
            if (cause instanceof VertxException) {
                // closed connections, pool and connect timeouts of the reactive client
                return Verdict.TRANSIENT;
            }
        }
        return Verdict.UNKNOWN;
    }

    public static boolean isTransient(Throwable failure) {
        return classify(failure) == Verdict.TRANSIENT;
    }

    static Verdict classifySqlState(String sqlState) {
        if (sqlState == null || sqlState.length() < 2) {
            return Verdict.UNKNOWN;
        }
        if (sqlState.equals("55P03")) {
            return Verdict.TRANSIENT;
        }
        return switch (sqlState.substring(0, 2)) {
            case "08", "40", "53", "57" -> Verdict.TRANSIENT;
            case "22", "23", "54" -> Verdict.RECORD;
            default -> Verdict.UNKNOWN;
        };
    }

    /** The SQLSTATE in the chain, null when none: reported with a dead-lettered record, never its text. */
    public static String sqlState(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof PgException pg) {
                return pg.getSqlState();
            }
        }
        return null;
    }
}
