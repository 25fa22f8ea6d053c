package io.routegateway.state.oauth;

import java.time.Instant;

/**
 * The answer of {@code POST …/oauth/authorize}: the URL the operator opens, and the state and
 * redirect URI it carries. The code verifier stays sealed in state-service.
 *
 * @param expiresAt after this the state is refused: start again
 */
public record AuthorizeStartView(String authorizeUrl, String state, String redirectUri, Instant expiresAt) {}
