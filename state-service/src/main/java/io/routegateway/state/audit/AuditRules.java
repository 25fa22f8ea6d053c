package io.routegateway.state.audit;

import java.time.Instant;
import java.time.format.DateTimeParseException;

import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;

/** The audit listing's filters, checked without I/O. */
public final class AuditRules {

    private AuditRules() {}

    /**
     * @param cursor list entries with an id below it (the previous page's {@code next_cursor}); null = newest
     */
    public record Filter(
            String subject, String resourceType, String resourceId, Instant from, Instant to, Long cursor) {}

    public static Filter filter(
            String subject, String resourceType, String resourceId, String from, String to, String cursor) {
        Long position = null;
        if (cursor != null && !cursor.isBlank()) {
            try {
                position = Long.parseLong(cursor.strip());
            } catch (NumberFormatException e) {
                throw AdminException.invalid(AdminCodes.QUERY, "cursor must be a next_cursor of this listing");
            }
            if (position < 1) {
                throw AdminException.invalid(AdminCodes.QUERY, "cursor must be a next_cursor of this listing");
            }
        }
        return new Filter(
                blankToNull(subject),
                blankToNull(resourceType),
                blankToNull(resourceId),
                instant("from", from),
                instant("to", to),
                position);
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }

    private static Instant instant(String name, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(text.strip());
        } catch (DateTimeParseException e) {
            throw AdminException.invalid(AdminCodes.QUERY, name + " must be an ISO-8601 instant");
        }
    }
}
