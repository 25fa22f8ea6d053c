package io.routegateway.state.usage;

import java.util.List;

import io.routegateway.core.event.AttemptStep;

/**
 * One request of the log with what only its detail shows.
 *
 * @param request the request as the list shows it
 * @param attemptChain its upstream attempts in order (route-core {@link AttemptStep}: at most {@value
 *     AttemptStep#MAX_STEPS} entries, upstream text cut to {@value AttemptStep#MAX_ERROR_CHARS}
 *     characters); empty when none was made or the row predates the chain
 */
public record RequestLogDetail(RequestLogView request, List<AttemptStep> attemptChain) {}
