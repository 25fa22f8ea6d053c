package io.routegateway.core.bridge;

/**
 * A body could not be converted: it is not the protocol's shape (wrong type, missing field). On a
 * client request that is the client's error; on an upstream response it is a {@code
 * response_transform} failure.
 */
public class BridgeException extends RuntimeException {

    public BridgeException(String message) {
        super(message);
    }
}
