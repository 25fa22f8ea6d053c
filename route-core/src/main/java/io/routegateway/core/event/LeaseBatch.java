package io.routegateway.core.event;

import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;

/**
 * The value of a {@link Topics#ADMISSIONS} message, framed as {@link JsonBatch}: one {@link
 * LeaseEvent} as a JSON object (a gateway that sends each lease alone) or a JSON array of the leases
 * one replica made within its publish window, in the order it made them (the message's key is the
 * replica's id, so one replica's batches stay in order on one partition, and with them every phase of
 * each of its leases). Readers treat each entry on its own and still check it ({@code
 * Leases.plausible}): an entry that cannot be read is skipped, never its batch.
 */
public final class LeaseBatch {

    private LeaseBatch() {}

    /** Every lease of a message, each with its own text; unreadable ones refused with a reason. */
    public static List<JsonBatch.Entry<LeaseEvent>> decode(String value) {
        return JsonBatch.decode(value, "lease message", "lease", LeaseBatch::read);
    }

    private static JsonBatch.Entry<LeaseEvent> read(int index, String payload, JsonNode node, String where) {
        try {
            LeaseEvent lease = Json.MAPPER.treeToValue(node, LeaseEvent.class);
            if (lease == null) {
                return new JsonBatch.Entry<>(index, payload, null, where + " is empty");
            }
            return new JsonBatch.Entry<>(index, payload, lease, null);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            return new JsonBatch.Entry<>(index, payload, null, where + " does not match " + LeaseEvent.TYPE);
        }
    }
}
