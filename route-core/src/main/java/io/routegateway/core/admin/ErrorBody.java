package io.routegateway.core.admin;

/**
 * The one error body of the services' own APIs (state-service's admin API, recovery-service's
 * internal API): {@code {"error":{"code","message","type"}}}. The client protocols' envelopes are the
 * gateway's own. {@code code} is the precise, stable reason; {@code type} its class, from the HTTP
 * status alone ({@link #typeFor}).
 */
public record ErrorBody(Detail error) {

    public static final String INVALID_REQUEST = "invalid_request";
    public static final String UNAUTHORIZED = "unauthorized";
    public static final String FORBIDDEN = "forbidden";
    public static final String NOT_FOUND = "not_found";
    public static final String CONFLICT = "conflict";
    public static final String SERVER_ERROR = "server_error";

    public record Detail(String code, String message, String type) {}

    public static ErrorBody of(int status, String code, String message) {
        return new ErrorBody(new Detail(code, message, typeFor(status)));
    }

    /** 401, 403, 404 and 409 have a type of their own; any other 4xx is an invalid request, 5xx a server error. */
    public static String typeFor(int status) {
        return switch (status) {
            case 401 -> UNAUTHORIZED;
            case 403 -> FORBIDDEN;
            case 404 -> NOT_FOUND;
            case 409 -> CONFLICT;
            default -> status >= 500 ? SERVER_ERROR : INVALID_REQUEST;
        };
    }
}
