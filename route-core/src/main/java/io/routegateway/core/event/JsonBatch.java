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
 * The framing of a Kafka message that carries records of one type: either one record as a JSON
 * object (a producer that sends each record alone) or a JSON array of them (a producer's batch: what
 * it made within one window, so a record costs a list append instead of a Kafka send). Decoding
 * yields every record with its own text; one that cannot be read never takes the rest of its batch
 * with it. {@link UsageBatch} ({@code route.usage}) and {@link LeaseBatch} ({@code route.admissions})
 * are its two uses.
 *
 * <p>Refusal reasons never quote the message's content (records carry client-chosen names).
 */
public final class JsonBatch {

    /** The most characters a producer puts in one message: at most 768 KiB of UTF-8, under the producer's 1 MiB request limit. */
    public static final int MAX_CHARS = 256 * 1024;

    private JsonBatch() {}

    /**
     * One record of a message.
     *
     * @param index its position in the batch, -1 for a message holding one object
     * @param payload its own JSON text
     * @param value the record, null when refused
     * @param refusal why it cannot be read, null when read
     */
    public record Entry<T>(int index, String payload, T value, String refusal) {

        public boolean refused() {
            return refusal != null;
        }
    }

    /** Reads one JSON object of a message into a record, or says why it cannot. */
    @FunctionalInterface
    public interface RecordReader<T> {

        /**
         * @param node a JSON object
         * @param where how refusals name it ("usage record 3 of the batch")
         * @return the entry (index and payload are filled in by the caller's values)
         */
        Entry<T> read(int index, String payload, JsonNode node, String where);
    }

    /** A batch of records already written as JSON objects ({@link Json#write}), in order. */
    public static String encode(List<String> records) {
        return "[" + String.join(",", records) + "]";
    }

    /**
     * Every record of a message, each with its own text exactly as it came; a message that is
     * neither an object nor an array is one refused entry, and a batch cut short keeps the records
     * before the cut (the rest is one refused entry).
     *
     * @param message the message's name in refusals ("usage message")
     * @param what the record's name in refusals ("usage record")
     */
    public static <T> List<Entry<T>> decode(String value, String message, String what, RecordReader<T> reader) {
        if (value == null || value.isBlank()) {
            return List.of(new Entry<>(-1, value, null, "empty " + what));
        }
        List<Entry<T>> entries = new ArrayList<>();
        long start = 0;
        try (JsonParser parser = Json.MAPPER.createParser(value)) {
            JsonToken first = parser.nextToken();
            if (first == JsonToken.START_OBJECT) {
                return List.of(entry(-1, value, parser.readValueAsTree(), what, reader));
            }
            if (first != JsonToken.START_ARRAY) {
                return List.of(new Entry<>(-1, value, null, "a " + message + " is a JSON object or an array of them"));
            }
            for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                if (token == null) {
                    throw new JsonParseException(parser, "the batch ends before its closing bracket");
                }
                start = parser.getTokenLocation().getCharOffset();
                JsonNode element = parser.readValueAsTree();
                long end = parser.getCurrentLocation().getCharOffset();
                entries.add(entry(entries.size(), value.substring((int) start, (int) end), element, what, reader));
                start = end;
            }
            return entries;
        } catch (IOException e) {
            String reason = "unparsable " + what + where(e);
            if (entries.isEmpty()) {
                return List.of(new Entry<>(-1, value, null, reason));
            }
            entries.add(new Entry<>(entries.size(), value.substring((int) start), null, reason));
            return entries;
        }
    }

    private static <T> Entry<T> entry(int index, String payload, JsonNode node, String what, RecordReader<T> reader) {
        String where = index < 0 ? what : what + " " + index + " of the batch";
        if (!node.isObject()) {
            return new Entry<>(index, payload, null, where + " is not a JSON object");
        }
        return reader.read(index, payload, node, where);
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
    public static class Collector {

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
}
