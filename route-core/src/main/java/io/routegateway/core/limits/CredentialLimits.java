package io.routegateway.core.limits;

import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.policy.ValidationException;

/**
 * What an upstream credential itself allows (the relay's or the vendor's own limits), set by the
 * admin: {@code {"rpm_limit": 60, "max_parallel_requests": 4}}, each optional, null = unlimited. A
 * credential at one of them is skipped at selection like a cooling one ({@code credential_full}),
 * and that is not a failure: nothing is recorded against it.
 */
public record CredentialLimits(Integer rpmLimit, Integer maxParallelRequests) {

    public static final String CODE = Limits.CODE;
    public static final CredentialLimits NONE = new CredentialLimits(null, null);

    public CredentialLimits {
        if (rpmLimit != null && (rpmLimit < 1 || rpmLimit > Limits.MAX_RPM)) {
            throw new ValidationException(CODE, "rpm_limit must be 1.." + Limits.MAX_RPM);
        }
        if (maxParallelRequests != null && (maxParallelRequests < 1 || maxParallelRequests > Limits.MAX_PARALLEL)) {
            throw new ValidationException(CODE, "max_parallel_requests must be 1.." + Limits.MAX_PARALLEL);
        }
    }

    @JsonIgnore
    public boolean isNone() {
        return rpmLimit == null && maxParallelRequests == null;
    }

    /** Strict parse of an admin write; null or absent = {@link #NONE}. */
    public static CredentialLimits parse(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return NONE;
        }
        if (!node.isObject()) {
            throw new ValidationException(CODE, "limits must be an object");
        }
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            String name = fields.next().getKey();
            if (!name.equals("rpm_limit") && !name.equals("max_parallel_requests")) {
                throw new ValidationException(
                        CODE, "a credential's limits take only rpm_limit and max_parallel_requests");
            }
        }
        return new CredentialLimits(
                whole(node.get("rpm_limit"), "rpm_limit", Limits.MAX_RPM),
                whole(node.get("max_parallel_requests"), "max_parallel_requests", Limits.MAX_PARALLEL));
    }

    private static Integer whole(JsonNode value, String field, int max) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < 1 || value.intValue() > max) {
            throw new ValidationException(CODE, field + " must be a whole number 1.." + max + " or null");
        }
        return value.intValue();
    }

    public ObjectNode toJson() {
        ObjectNode node = Json.MAPPER.createObjectNode();
        if (rpmLimit == null) {
            node.putNull("rpm_limit");
        } else {
            node.put("rpm_limit", rpmLimit);
        }
        if (maxParallelRequests == null) {
            node.putNull("max_parallel_requests");
        } else {
            node.put("max_parallel_requests", maxParallelRequests);
        }
        return node;
    }
}
