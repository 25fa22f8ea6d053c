package io.routegateway.state.web;

/**
 * Error codes of the admin API that the specs do not name (theirs live in route-core: {@code
 * ValidationCodes}, {@code RecoveryConfig}, {@code RuntimeSettings}, {@code ModelPrices}). Every
 * error body is {@code {"error":{"code":"…","message":"…"}}}.
 */
public final class AdminCodes {

    /** 401: no admin bearer token, or the wrong one. */
    public static final String UNAUTHORIZED = "unauthorized";
    /** 403: the caller's role does not reach the endpoint ({@code AdminEndpoints}), or would exceed its rights. */
    public static final String FORBIDDEN = "forbidden";

    /** 429: too many failed admin sign-ins from the caller's address ({@code state.admin.sign-in-throttle.*}). */
    public static final String SIGN_IN_THROTTLED = "sign_in_throttled";
    /** 400: an API token's role is not one of the roles, or a team role without a team (or another with one). */
    public static final String ROLE = "validation.role";
    /** 400: an API token's expiry is in the past. */
    public static final String EXPIRES_AT = "validation.expires_at";
    /** 400: a PATCH of an API token names its role or team: they never change (revoke and create instead). */
    public static final String IMMUTABLE_FIELD = "validation.immutable_field";

    /** 404: no resource with that id (or the path does not exist). */
    public static final String NOT_FOUND = "not_found";
    /** 409: the id is taken. */
    public static final String CONFLICT = "conflict";
    /** 503: recovery-service did not answer (down, refused, or timed out). */
    public static final String RECOVERY_UNAVAILABLE = "recovery_unavailable";
    /** 502: recovery-service answered with a server error. */
    public static final String RECOVERY_FAILED = "recovery_failed";
    /** 500: anything unexpected; the message never carries request content. */
    public static final String INTERNAL = "internal";

    /** 400: the body is not JSON, not an object, or empty. */
    public static final String MALFORMED_JSON = "validation.malformed_json";
    /** 400: a field has the wrong JSON type (e.g. a string where a number belongs). */
    public static final String FIELD_TYPE = "validation.field_type";
    /** 400: a field the endpoint does not take (unknown or misspelt); the strict endpoints only. */
    public static final String UNKNOWN_FIELD = "validation.unknown_field";

    /** 400: an id (in the body or the path) is malformed, too long or holds unstorable characters. */
    public static final String ID = "validation.id";

    public static final String NAME = "validation.name";
    public static final String PLATFORM = "validation.platform";
    public static final String KIND = "validation.kind";
    /** 400: the platform does not accept this kind of credential (capability rule). */
    public static final String PLATFORM_KIND = "validation.platform_kind";

    public static final String BASE_URL = "validation.base_url";
    public static final String SECRET = "validation.secret";
    /** A {@code base_url} change without the secret entered again in the same request. */
    public static final String SECRET_REQUIRED = "validation.secret_required";

    public static final String MODEL_MAPPINGS = "validation.model_mappings";
    public static final String WEIGHT_MODE = "validation.weight_mode";
    public static final String BRIDGING = "validation.bridging";
    public static final String PRIORITY = "validation.priority";
    public static final String QUOTA = "validation.quota_remaining";
    /** 400: a write would rewrite a stored config_json that is not a JSON object. */
    public static final String CONFIG_JSON = "validation.config_json";
    /** 400: a group id that does not exist. */
    public static final String GROUP_IDS = "validation.group_ids";
    /** 400: a credential id that does not exist. */
    public static final String CREDENTIAL_IDS = "validation.credential_ids";

    public static final String PROTOCOL = "validation.protocol";
    public static final String MODELS = "validation.models";
    /** 400: a model key in the path is blank, too long or holds control or unstorable characters. */
    public static final String MODEL_KEY = "validation.model_key";
    /** 400: a query parameter (filter, paging, time range) is invalid. */
    public static final String QUERY = "validation.query";
    /** 400: a team's weight outside 1..1000. */
    public static final String TEAM_WEIGHT = "validation.team_weight";
    /** 400: an AccessKey's team_id is malformed or names no team. */
    public static final String TEAM_ID = "validation.team_id";
    /** 409: a team that still owns AccessKeys cannot be deleted. */
    public static final String TEAM_HAS_KEYS = "team.has_keys";

    /** 400: route check needs exactly one of access_key_id and access_key. */
    public static final String ACCESS_KEY = "validation.access_key";

    /** 400: a webhook's url is malformed or an internal target not allow-listed. */
    public static final String WEBHOOK_URL = "validation.webhook_url";
    /** 400: a webhook's event_types is empty or names an unknown type. */
    public static final String EVENT_TYPES = "validation.event_types";
    /** 400: a webhook's format is not json or slack. */
    public static final String FORMAT = "validation.format";

    private AdminCodes() {}
}
