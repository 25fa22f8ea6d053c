package io.routegateway.state.consume;

import java.io.IOException;
import java.util.concurrent.TimeoutException;

import io.vertx.core.VertxException;
import io.vertx.pgclient.PgException;

/** Which failures pass by themselves (retry) and which never will (dead-letter). */
final class Failures {

    private Failures() {}

    /**
     * Transient: the connection or the server is the problem (connection exceptions, SQLSTATE class
     * 08, 40 serialization/deadlock, 53 resources, 57 operator intervention, 55P03 lock not
     * available, timeouts, other reactive-client errors), found first in the cause chain.
     * Everything else (constraint violations, rejected input, bugs) is the message's fault.
     */
    static boolean isTransient(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof PoisonMessageException) {
                return false;
            }
            if (cause instanceof IOException || cause instanceof TimeoutException) {
                return true;
            }
            if (cause instanceof PgException pg) {
                return isTransientSqlState(pg.getSqlState());
            }
            if (cause instanceof VertxException) {
                // closed connections, pool and connect timeouts of the reactive client
                return true;
            }
        }
        return false;
    }

    static boolean isTransientSqlState(String sqlState) {
        if (sqlState == null || sqlState.length() < 2) {
            return false;
        }
        String sqlClass = sqlState.substring(0, 2);
        return sqlClass.equals("08")
                || sqlClass.equals("40")
                || sqlClass.equals("53")
                || sqlClass.equals("57")
                || sqlState.equals("55P03");
    }
}
