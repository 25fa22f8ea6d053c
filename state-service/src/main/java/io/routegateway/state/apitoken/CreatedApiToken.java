package io.routegateway.state.apitoken;

/** The answer to creating an API token: the only time the token itself is shown. */
public record CreatedApiToken(String token, String notice, ApiTokenView apiToken) {

    static final String NOTICE = "the token is shown only once; store it now";
}
