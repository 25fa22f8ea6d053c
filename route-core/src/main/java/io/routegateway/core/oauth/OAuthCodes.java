package io.routegateway.core.oauth;

/**
 * Validation codes of onboarding an official account (pasting a platform's credentials file, the
 * explicit token fields, the authorization-code flow), defined once: route-core's {@link
 * CredentialFileImport} and {@link Pkce} throw them, state-service's admin API returns them.
 */
public final class OAuthCodes {

    /** 400: {@code credentials_json} is not one JSON object (unparsable, duplicate keys, an array, trailing text, U+0000). */
    public static final String CREDENTIALS_JSON = "validation.oauth_credentials_json";
    /** 400: the credentials text is longer than {@link CredentialFileImport#MAX_JSON_CHARS}. */
    public static final String CREDENTIALS_SIZE = "validation.oauth_credentials_size";
    /** 400: the JSON is not the credentials file of the credential's platform (or the platform has none). */
    public static final String PLATFORM_SHAPE = "validation.oauth_platform_shape";
    /** 400: the access token is missing, not a string, too long, or not printable ASCII without spaces. */
    public static final String ACCESS_TOKEN = "validation.oauth_access_token";
    /** 400: the refresh token is missing (an account that cannot refresh stops within hours), or malformed. */
    public static final String REFRESH_TOKEN = "validation.oauth_refresh_token";
    /** 400: the expiry is of the wrong type, unparsable, or outside 2000-01-01 .. now + 366 days. */
    public static final String EXPIRES_AT = "validation.oauth_expires_at";
    /** 400: the account id is not a short single-line string, or repeats a token. */
    public static final String ACCOUNT_ID = "validation.oauth_account_id";
    /** 400: the body is neither {@code credentials_json} nor the token fields, or mixes both. */
    public static final String BODY = "validation.oauth_body";
    /** 400: the redirect URI is not an absolute http(s) URL without a fragment. */
    public static final String REDIRECT_URI = "validation.oauth_redirect_uri";
    /** 400: the callback URL or code is malformed, or the platform answered with an error. */
    public static final String CALLBACK = "validation.oauth_callback";
    /** 400: the state is unknown, already used, belongs to another credential, or expired. */
    public static final String STATE = "validation.oauth_state";
    /** 400: the credential is not an official one (api keys hold no OAuth material). */
    public static final String NOT_OFFICIAL = "validation.oauth_not_official";
    /** 400: no authorization flow is configured for the platform (no authorize or token URL, no client id). */
    public static final String NOT_CONFIGURED = "validation.oauth_not_configured";
    /** 502: the platform's token endpoint refused or failed the code exchange. */
    public static final String EXCHANGE_FAILED = "oauth_exchange_failed";

    private OAuthCodes() {}
}
