package io.routegateway.core.recovery;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Optional;

/**
 * The zone of a scheduled recovery rule that names none: {@value #KEY} ({@code
 * ROUTE_DEFAULT_TIME_ZONE}, read by state-service and recovery-service alike), else the deprecated
 * {@value #DEPRECATED_KEY} (recovery-service's former key, still honoured), else the JVM's zone.
 */
public final class DefaultZone {

    public static final String KEY = "route.default-time-zone";
    public static final String DEPRECATED_KEY = "recovery.default-time-zone";

    private DefaultZone() {}

    /** An unknown id is refused, naming the key it came from, so a service stops at start. */
    public static ZoneId resolve(Optional<String> configured, Optional<String> deprecated, ZoneId jvm) {
        Optional<String> current = configured.map(String::strip).filter(id -> !id.isEmpty());
        if (current.isPresent()) {
            return zone(KEY, current.get());
        }
        Optional<String> old = deprecated.map(String::strip).filter(id -> !id.isEmpty());
        return old.isPresent() ? zone(DEPRECATED_KEY, old.get()) : jvm;
    }

    private static ZoneId zone(String key, String id) {
        try {
            return ZoneId.of(id);
        } catch (DateTimeException e) {
            String shown = (id.length() > 60 ? id.substring(0, 60) + "…" : id).replaceAll("\\p{Cntrl}", "?");
            throw new IllegalArgumentException(key + ": unknown time zone '" + shown + "'", e);
        }
    }
}
