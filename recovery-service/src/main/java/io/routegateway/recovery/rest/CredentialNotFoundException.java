package io.routegateway.recovery.rest;

/** No credential with this id, or an archived one (archived accounts are out of the pool for good). */
class CredentialNotFoundException extends RuntimeException {

    static final String CODE = "credential_not_found";

    CredentialNotFoundException(String id) {
        super("no credential " + id);
    }
}
