package io.routegateway.core.bridge;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** An error as the client protocol shows it: the HTTP status and the envelope body. */
public record ErrorReply(int status, ObjectNode body) {}
