package io.routegateway.core.bridge;

/**
 * An error in the canonical form: the HTTP status, its kind and the message. Decoded from any
 * protocol's error envelope and encoded into the client protocol's envelope.
 */
public record BridgeError(int status, Kind kind, String message) {

    public enum Kind {
        INVALID_REQUEST,
        AUTHENTICATION,
        PERMISSION,
        NOT_FOUND,
        REQUEST_TOO_LARGE,
        RATE_LIMIT,
        OVERLOADED,
        SERVER;

        /** The kind an HTTP status stands for. */
        public static Kind ofStatus(int status) {
            return switch (status) {
                case 401 -> AUTHENTICATION;
                case 403 -> PERMISSION;
                case 404 -> NOT_FOUND;
                case 413 -> REQUEST_TOO_LARGE;
                case 429 -> RATE_LIMIT;
                case 503, 529 -> OVERLOADED;
                default -> status >= 400 && status < 500 ? INVALID_REQUEST : SERVER;
            };
        }
    }

    public static BridgeError of(int status, String message) {
        return new BridgeError(status, Kind.ofStatus(status), message);
    }
}
