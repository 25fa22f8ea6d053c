package io.routegateway.state.settings;

import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.policy.RuntimeSettings;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;

/**
 * The checks of a runtime settings update, without I/O: the body is a JSON object, and route-core's
 * {@link RuntimeSettings#withPatch} checks every field (unknown keys, wrong types, bounds, prices).
 * {@link SettingsService} locks the rows, stores what {@link Update#rows()} holds and queues the
 * snapshot.
 */
public final class SettingsRules {

    private SettingsRules() {}

    /**
     * The settings after an accepted update.
     *
     * @param next the whole new settings
     * @param rows every stored row ({@code key -> value}) of the new settings
     */
    public record Update(RuntimeSettings next, Map<String, String> rows) {}

    /** Refuses a body that is not a JSON object ({@code malformed_json}), before anything is read. */
    public static JsonNode requireObject(JsonNode patch) {
        if (patch == null || !patch.isObject()) {
            throw AdminException.invalid(AdminCodes.MALFORMED_JSON, "the body must be a JSON object");
        }
        return patch;
    }

    /** Only the fields sent change; one bad field refuses the whole update. */
    public static Update update(RuntimeSettings current, JsonNode patch) {
        RuntimeSettings next = current.withPatch(requireObject(patch));
        return new Update(next, next.toStored());
    }
}
