package io.routegateway.state.outcome;

/**
 * A message that no retry can apply (unparsable, an unknown event type, an unknown credential, an
 * event the transition rejects). It goes to the dead-letter topic with this message as its reason;
 * never log or carry secrets in it.
 */
public class PoisonMessageException extends RuntimeException {

    public PoisonMessageException(String message) {
        super(message);
    }

    public PoisonMessageException(String message, Throwable cause) {
        super(message, cause);
    }
}
