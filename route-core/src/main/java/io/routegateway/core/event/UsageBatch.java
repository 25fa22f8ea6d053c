package io.routegateway.core.event;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;

/**
 * The value of a {@link Topics#USAGE} message: either one {@link RequestCompleted} as a JSON object
 * (recovery-service's probes, gateways before batching) or a JSON array of them (a gateway's batch:
 * the records of up to one batch window, so a request costs a list append instead of a Kafka send).
 * Consumers decode every message with {@link #decode} and treat each entry on its own: one entry that
 * cannot be read never takes the rest of its batch with it.
 *
 * <p>Refusal reasons never quote the message's content (a record carries client-chosen model names).
 */
public final class UsageBatch {

    /** The most characters a gateway puts in one message: at most 768 KiB of UTF-8, under the producer's 1 MiB request limit. */
    public static final int MAX_CHARS = 256 * 1024;

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
        return "[" + String.join(",", records) + "]";
    }

    /**
     * Every record of a message, each with its own text exactly as it came; a message that is
     * neither an object nor an array is one refused entry, and a batch cut short keeps the records
     * before the cut (the rest is one refused entry).
     */
    public static List<Entry> decode(String value) {
        if (value == null || value.isBlank()) {
            return List.of(new Entry(-1, value, null, "empty usage record"));
        }
        List<Entry> entries = new ArrayList<>();
        long start = 0;
        try (JsonParser parser = Json.MAPPER.createParser(value)) {
            JsonToken first = parser.nextToken();
            if (first == JsonToken.START_OBJECT) {
                return List.of(entry(-1, value, parser.readValueAsTree()));
            }
            if (first != JsonToken.START_ARRAY) {
                return List.of(new Entry(-1, value, null, "a usage message is a JSON object or an array of them"));
            }
            for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                if (token == null) {
                    throw new JsonParseException(parser, "the batch ends before its closing bracket");
                }
                start = parser.getTokenLocation().getCharOffset();
                JsonNode element = parser.readValueAsTree();
                long end = parser.getCurrentLocation().getCharOffset();
                entries.add(entry(entries.size(), value.substring((int) start, (int) end), element));
                start = end;
            }
            return entries;
        } catch (IOException e) {
            String reason = "unparsable usage record" + where(e);
            if (entries.isEmpty()) {
                return List.of(new Entry(-1, value, null, reason));
            }
            entries.add(new Entry(entries.size(), value.substring((int) start), null, reason));
            return entries;
        }
    }

    private static String where(IOException e) {
        if (e instanceof JsonProcessingException parse && parse.getLocation() != null) {
            return " at line " + parse.getLocation().getLineNr() + ", column "
                    + parse.getLocation().getColumnNr();
        }
        return "";
    }

    /**
     * Gathers records into batches of at most {@code maxRecords} records and {@link #MAX_CHARS}
     * characters (a record larger than that goes alone). Not thread-safe: its owner serialises
     * access and decides when a partial batch is due ({@link #drain}).
     */
    public static final class Collector {

        private final int maxRecords;
        private List<String> records = new ArrayList<>();
        private int chars;

        public Collector(int maxRecords) {
            if (maxRecords < 1) {
                throw new IllegalArgumentException("maxRecords must be at least 1");
            }
            this.maxRecords = maxRecords;
        }

        /**
         * Adds a record; returns the batches this completes, in order (empty while the current one
         * has room): the batch before it when the record would not fit, then the record's own batch
         * when it fills it.
         */
        public List<List<String>> add(String record) {
            List<String> before = !records.isEmpty() && chars + 1 + record.length() + 2 > MAX_CHARS ? drain() : null;
            records.add(record);
            chars += record.length() + 1;
            List<String> filled = records.size() >= maxRecords || chars + 1 >= MAX_CHARS ? drain() : null;
            if (before == null) {
                // the common case, room left: nothing allocated
                return filled == null ? List.of() : List.of(filled);
            }
            return filled == null ? List.of(before) : List.of(before, filled);
        }

        /** The records gathered so far (possibly none), leaving the collector empty. */
        public List<String> drain() {
            List<String> batch = records;
            records = new ArrayList<>();
            chars = 0;
            return batch;
        }

        public boolean isEmpty() {
            return records.isEmpty();
        }

        public int size() {
            return records.size();
        }
    }

    private static Entry entry(int index, String payload, JsonNode node) {
        String where = index < 0 ? "usage record" : "usage record " + index + " of the batch";
        if (!node.isObject()) {
            return new Entry(index, payload, null, where + " is not a JSON object");
        }
        RequestCompleted record;
        try {
            record = Json.MAPPER.treeToValue(node, RequestCompleted.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            return new Entry(index, payload, null, where + " does not match " + RequestCompleted.TYPE);
        }
        if (record == null || record.requestId() == null || record.occurredAt() == null) {
            return new Entry(index, payload, null, where + ": request_id and occurred_at are required");
        }
        return new Entry(index, payload, record, null);
    }
}
