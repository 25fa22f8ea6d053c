package io.routegateway.core.failure;

/** The three verdicts of the spec's classification function ({@code ProxyFailureKind}). */
public enum FailureClass {
    TRANSIENT,
    PERMANENT,
    NONE
}
