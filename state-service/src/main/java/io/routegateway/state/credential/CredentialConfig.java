package io.routegateway.state.credential;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.headers.CredentialHeaders;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.ModelMappings;
import io.routegateway.core.policy.FailurePolicy;
import io.routegateway.core.recovery.RecoveryConfig;
import io.routegateway.state.repository.StateRows;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.Inputs;
import io.routegateway.state.web.JsonBody;

/**
 * Writes the four keys of {@code config_json} an update may carry — {@code model_mappings}, {@code
 * failure_policy}, {@code recovery}, {@code upstream_headers} — validating each with route-core's rules, and keeping every other
 * key untouched. A stored config that is not a JSON object is never overwritten: a recovery write is
 * refused with {@code validation.recovery_config_json} (route-core's rule), any other config write
 * with {@code validation.config_json}.
 */
final class CredentialConfig {

    static final String FAILURE_POLICY = "failure_policy";
    /** The account-steering headers (route-core {@link CredentialHeaders}); absent = none. */
    static final String UPSTREAM_HEADERS = "upstream_headers";

    private CredentialConfig() {}

    /** Whether the body changes config_json at all. */
    static boolean touches(JsonBody<CredentialInput> body) {
        return body.has(ModelMappings.KEY)
                || body.has(FAILURE_POLICY)
                || body.has(RecoveryConfig.KEY)
                || body.has(UPSTREAM_HEADERS);
    }

    /**
     * The new config_json text.
     *
     * @param stored the current text ({@code "{}"} for a new credential)
     * @param zone written into a scheduled recovery rule that names no time zone
     */
    static String write(String stored, JsonBody<CredentialInput> body, ZoneId zone) {
        // validate the inputs first, so a bad value is reported as itself
        List<ModelMapping> mappings =
                body.has(ModelMappings.KEY) ? mappings(body.value().modelMappings()) : null;
        FailurePolicy policy = body.has(FAILURE_POLICY) ? FailurePolicy.parse(body.node(FAILURE_POLICY)) : null;
        CredentialHeaders headers =
                body.has(UPSTREAM_HEADERS) ? CredentialHeaders.parse(body.node(UPSTREAM_HEADERS)) : null;
        String text = stored;
        if (body.has(RecoveryConfig.KEY)) {
            text = RecoveryConfig.applyRecovery(stored, body.node(RecoveryConfig.KEY), zone);
        }
        ObjectNode config = object(text);
        if (body.has(ModelMappings.KEY)) {
            if (mappings.isEmpty()) {
                config.remove(ModelMappings.KEY);
            } else {
                config.set(ModelMappings.KEY, Json.MAPPER.valueToTree(mappings));
            }
        }
        if (body.has(FAILURE_POLICY)) {
            JsonNode sent = body.node(FAILURE_POLICY);
            if (sent == null || sent.isNull()) {
                config.remove(FAILURE_POLICY);
            } else {
                config.set(FAILURE_POLICY, Json.MAPPER.valueToTree(policy));
            }
        }
        if (headers != null) {
            if (headers.isNone()) {
                config.remove(UPSTREAM_HEADERS);
            } else {
                config.set(UPSTREAM_HEADERS, Json.MAPPER.valueToTree(headers));
            }
        }
        return config.toString();
    }

    /** The stored steering headers; none when absent or unreadable (a hand-edited config). */
    static CredentialHeaders upstreamHeaders(JsonNode config) {
        return StateRows.upstreamHeaders(config);
    }

    /** Whether the stored text is a JSON object (what the view reports as {@code config_json_valid}). */
    static boolean isValid(String stored) {
        try {
            object(stored);
            return true;
        } catch (AdminException e) {
            return false;
        }
    }

    /**
     * The mappings as sent: at most {@link Inputs#MAX_MAPPINGS}, {@code from} non-blank and unique,
     * at most one catch-all ({@code "*"}); {@code from} and {@code to} single-line model names of at
     * most {@link Inputs#MAX_MODEL} characters.
     */
    static List<ModelMapping> mappings(List<CredentialInput.MappingInput> sent) {
        List<ModelMapping> out = new ArrayList<>();
        if (sent == null) {
            return out;
        }
        if (sent.size() > Inputs.MAX_MAPPINGS) {
            throw AdminException.invalid(
                    AdminCodes.MODEL_MAPPINGS, "at most " + Inputs.MAX_MAPPINGS + " model mappings");
        }
        Set<String> seen = new HashSet<>();
        for (CredentialInput.MappingInput entry : sent) {
            if (entry == null || entry.from() == null || entry.from().isBlank()) {
                throw AdminException.invalid(AdminCodes.MODEL_MAPPINGS, "every model mapping needs a non-blank from");
            }
            Inputs.modelName(entry.from(), AdminCodes.MODEL_MAPPINGS, "a model mapping's from");
            if (entry.to() != null && !entry.to().isBlank()) {
                Inputs.modelName(entry.to(), AdminCodes.MODEL_MAPPINGS, "a model mapping's to");
            }
            ModelMapping mapping = new ModelMapping(entry.from(), entry.to());
            if (!seen.add(mapping.from())) {
                throw AdminException.invalid(
                        AdminCodes.MODEL_MAPPINGS,
                        "model mapping from " + Inputs.echo(mapping.from()) + " appears twice"
                                + (mapping.isCatchAll() ? " (one catch-all at most)" : ""));
            }
            out.add(mapping);
        }
        return out;
    }

    private static ObjectNode object(String text) {
        return Json.readObject(text)
                .orElseThrow(
                        () -> AdminException.invalid(
                                AdminCodes.CONFIG_JSON,
                                "the stored config_json is not a valid JSON object; refusing to overwrite it (fix it by hand)"));
    }
}
