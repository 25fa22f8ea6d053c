package io.routegateway.core.bridge;

/**
 * The request uses something the target protocol cannot express (Responses stored state, built-in
 * tools, several choices, …): the gateway answers {@code operation_unsupported} instead of sending
 * a request that would mean something else.
 */
public final class UnsupportedConversionException extends BridgeException {

    public UnsupportedConversionException(String message) {
        super(message);
    }
}
