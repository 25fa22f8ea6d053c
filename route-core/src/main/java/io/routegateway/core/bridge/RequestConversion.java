package io.routegateway.core.bridge;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** The outcome of converting a client request for another protocol's upstream. */
public sealed interface RequestConversion {

    /** The canonical request (needed again for the response) and the upstream body. */
    record Converted(ChatRequest request, ObjectNode body) implements RequestConversion {}

    /** The target cannot express the request: {@code operation_unsupported}. */
    record Unsupported(String detail) implements RequestConversion {}

    /** The client's body is not its protocol's shape: the client's error (400). */
    record Invalid(String detail) implements RequestConversion {}
}
