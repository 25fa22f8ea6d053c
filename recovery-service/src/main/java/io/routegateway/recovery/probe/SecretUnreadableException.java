package io.routegateway.recovery.probe;

/**
 * The credential's sealed secret does not open with this service's key: a deployment problem (the
 * services disagree on {@code route.secret-encryption-key}), not a failure of the credential, so
 * nothing is published.
 */
public class SecretUnreadableException extends RuntimeException {

    public static final String CODE = "credential_secret_unreadable";

    public SecretUnreadableException(String credentialId) {
        super("the secret of credential " + credentialId
                + " does not open with route.secret-encryption-key; check that every service uses the same key");
    }
}
