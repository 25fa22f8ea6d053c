package io.routegateway.state.web;

/** Page size limits of the newest-first listings. */
public final class Paging {

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;

    private Paging() {}

    /** The limit sent (null = default), within 1..{@value #MAX_LIMIT}. */
    public static int limit(String sent) {
        if (sent == null || sent.isBlank()) {
            return DEFAULT_LIMIT;
        }
        try {
            int limit = Integer.parseInt(sent.strip());
            if (limit >= 1 && limit <= MAX_LIMIT) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw AdminException.invalid(AdminCodes.QUERY, "limit must be an integer 1.." + MAX_LIMIT);
    }
}
