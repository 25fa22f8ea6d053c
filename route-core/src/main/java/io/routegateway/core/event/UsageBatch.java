package io.routegateway.core.event;

import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;

/**
 * The value of a {@link Topics#USAGE} message, framed as {@link JsonBatch}: either one {@link
 * RequestCompleted} as a JSON object (recovery-service's probes, gateways before batching) or a JSON
 * array of them (a gateway's batch: the records of up to one batch window, so a request costs a list
 * append instead of a Kafka send). Consumers decode every message with {@link #decode} and treat each
 * entry on its own: one entry that cannot be read never takes the rest of its batch with it.
 *
 * <p>Refusal reasons never quote the message's content (a record carries client-chosen model names).
 */
public final class UsageBatch {

    /** The most characters a gateway puts in one message ({@link JsonBatch#MAX_CHARS}). */
    public static final int MAX_CHARS = JsonBatch.MAX_CHARS;

    private UsageBatch() {}

    /**
     * One record of a message.
     *
     * @param index its position in the batch, -1 for a message holding one object
     * @param payload its own JSON text, what its dead letter carries
     * @param record the record, null when refused
     * @param refusal why it cannot be read, null when read
     */
    public record Entry(int index, String payload, RequestCompleted record, String refusal) {

        public boolean refused() {
            return refusal != null;
        }
    }

    /** A batch of records already written as JSON objects ({@link Json#write}), in order. */
    public static String encode(List<String> records) {
        return JsonBatch.encode(records);
    }

    /**
     * Every record of a message, each with its own text exactly as it came; a message that is
     * neither an object nor an array is one refused entry, and a batch cut short keeps the records
     * before the cut (the rest is one refused entry).
     */
    public static List<Entry> decode(String value) {
        return JsonBatch.decode(value, "usage message", "usage record", UsageBatch::read).stream()
                .map(entry -> new Entry(entry.index(), entry.payload(), entry.value(), entry.refusal()))
                .toList();
    }

    /** Gathers usage records into batches ({@link JsonBatch.Collector}). */
    public static final class Collector extends JsonBatch.Collector {

        public Collector(int maxRecords) {
            super(maxRecords);
        }
    }

    private static JsonBatch.Entry<RequestCompleted> read(int index, String payload, JsonNode node, String where) {
        RequestCompleted record;
        try {
            record = Json.MAPPER.treeToValue(node, RequestCompleted.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            return new JsonBatch.Entry<>(index, payload, null, where + " does not match " + RequestCompleted.TYPE);
        }
        if (record == null || record.requestId() == null || record.occurredAt() == null) {
            return new JsonBatch.Entry<>(index, payload, null, where + ": request_id and occurred_at are required");
        }
        return new JsonBatch.Entry<>(index, payload, record, null);
    }
}
