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

    /** The parameters of the export; any other is {@code validation.unknown_field}. */
    public static final java.util.Set<String> EXPORT_PARAMETERS =
            java.util.Set.of("format", "subject", "resource_type", "resource_id", "from", "to");

    /** The longest range one export covers: a year of entries. */
    public static final java.time.Duration MAX_EXPORT_RANGE = java.time.Duration.ofDays(366);

    /** What an export covers and how it is written. */
    public record Export(Filter filter, boolean csv) {}

    /** Checks an export's parameters; every refusal is a 400 before anything is read. */
    public static Export export(
            java.util.Set<String> sent,
            String format,
            String subject,
            String resourceType,
            String resourceId,
            String from,
            String to) {
        io.routegateway.state.web.RowExport.refuseUnknown(sent, EXPORT_PARAMETERS);
        String f = format == null || format.isBlank() ? "csv" : format.strip();
        if (!f.equals("csv") && !f.equals("ndjson")) {
            throw AdminException.invalid(AdminCodes.QUERY, "format must be csv or ndjson");
        }
        Filter filter = filter(subject, resourceType, resourceId, from, to, null);
        if (filter.from() == null || filter.to() == null) {
            throw AdminException.invalid(AdminCodes.QUERY, "from and to are required");
        }
        if (!filter.from().isBefore(filter.to())) {
            throw AdminException.invalid(AdminCodes.QUERY, "from must be before to");
        }
        if (java.time.Duration.between(filter.from(), filter.to()).compareTo(MAX_EXPORT_RANGE) > 0) {
            throw AdminException.invalid(AdminCodes.QUERY, "from and to must be at most 366 days apart");
        }
        return new Export(filter, f.equals("csv"));
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
