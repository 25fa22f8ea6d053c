package io.routegateway.state.outcome;

/** An event names a credential that does not exist: it can never be applied (a poison message). */
public final class UnknownCredentialException extends PoisonMessageException {

    public UnknownCredentialException(String credentialId) {
        super("unknown credential " + credentialId);
    }
}
