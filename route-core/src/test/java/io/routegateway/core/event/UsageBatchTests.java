package io.routegateway.core.event;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UsageBatchTests {

    private static final Instant AT = Instant.parse("2026-07-01T12:00:00Z");

    private static RequestCompleted record(String model) {
        return RequestCompleted.refused(UUID.randomUUID(), AT, Protocol.OPENAI_CHAT, "ak-" + model, 401, "bad_key");
    }

    private static List<RequestCompleted> records(List<UsageBatch.Entry> entries) {
        return entries.stream().map(UsageBatch.Entry::record).toList();
    }

    @Nested
    class Decoding {

        @Test
        void aBatchRoundTripsInOrderWithEachRecordsOwnText() {
            RequestCompleted a = record("a");
            RequestCompleted b = record("b");
            String value = UsageBatch.encode(List.of(Json.write(a), Json.write(b)));

            List<UsageBatch.Entry> entries = UsageBatch.decode(value);

            assertThat(value).startsWith("[{").endsWith("}]");
            assertThat(records(entries)).containsExactly(a, b);
            assertThat(entries).extracting(UsageBatch.Entry::index).containsExactly(0, 1);
            assertThat(entries).extracting(UsageBatch.Entry::payload).containsExactly(Json.write(a), Json.write(b));
            assertThat(entries).noneMatch(UsageBatch.Entry::refused);
        }

        @Test
        void aSingleObjectIsOneEntryWithTheWholeMessageAsItsText() {
            RequestCompleted a = record("a");
            String value = Json.write(a);

            assertThat(UsageBatch.decode(value)).containsExactly(new UsageBatch.Entry(-1, value, a, null));
        }

        @Test
        void oneBadRecordIsRefusedAloneWithItsExactTextAndTheOthersAreRead() {
            RequestCompleted a = record("a");
            RequestCompleted b = record("b");
            String wrongType = "{\"request_id\":\"" + UUID.randomUUID() + "\",\"occurred_at\":\"" + AT
                    + "\",\"status\":\"not a number\"}";
            String noId = "{\"occurred_at\":\"" + AT + "\"}";
            // escapes stay as they came, so the dead letter is the record the producer wrote
            String escaped = Json.write(record("x")).replace("ak-x", "ak-\\u0000\\ud800");
            String value = "[" + Json.write(a) + ", 42 ," + wrongType + ",\n" + noId + "," + escaped + ","
                    + Json.write(b) + "]";

            List<UsageBatch.Entry> entries = UsageBatch.decode(value);

            assertThat(entries).hasSize(6);
            assertThat(entries.get(0).record()).isEqualTo(a);
            assertThat(entries.get(1).payload()).isEqualTo("42");
            assertThat(entries.get(1).refusal()).isEqualTo("usage record 1 of the batch is not a JSON object");
            assertThat(entries.get(2).payload()).isEqualTo(wrongType);
            assertThat(entries.get(2).refusal())
                    .isEqualTo("usage record 2 of the batch does not match request-completed.v1")
                    .doesNotContain("not a number");
            assertThat(entries.get(3).payload()).isEqualTo(noId);
            assertThat(entries.get(3).refusal()).endsWith("request_id and occurred_at are required");
            assertThat(entries.get(4).payload()).isEqualTo(escaped);
            assertThat(entries.get(4).record().accessKeyId()).isEqualTo("ak-\u0000\uD800");
            assertThat(entries.get(5).record()).isEqualTo(b);
        }

        @Test
        void aBatchCutShortKeepsTheRecordsBeforeTheCut() {
            RequestCompleted a = record("a");
            String value = "[" + Json.write(a) + ",{\"request_id\":\"x";

            List<UsageBatch.Entry> entries = UsageBatch.decode(value);

            assertThat(entries).hasSize(2);
            assertThat(entries.get(0).record()).isEqualTo(a);
            assertThat(entries.get(1).index()).isEqualTo(1);
            assertThat(entries.get(1).payload()).isEqualTo("{\"request_id\":\"x");
            assertThat(entries.get(1).refusal()).startsWith("unparsable usage record at line 1");
            assertThat(UsageBatch.decode("[" + Json.write(a)))
                    .hasSize(2)
                    .last()
                    .extracting(UsageBatch.Entry::refusal)
                    .asString()
                    .startsWith("unparsable usage record");
        }

        @Test
        void messagesThatAreNoRecordAtAllAreOneRefusedEntryThatNeverQuotesThem() {
            assertThat(UsageBatch.decode(null)).singleElement().satisfies(entry -> {
                assertThat(entry.refusal()).isEqualTo("empty usage record");
                assertThat(entry.payload()).isNull();
            });
            assertThat(UsageBatch.decode("  ").get(0).refusal()).isEqualTo("empty usage record");
            assertThat(UsageBatch.decode("\"secret-ish text\"").get(0).refusal())
                    .isEqualTo("a usage message is a JSON object or an array of them");
            assertThat(UsageBatch.decode("null").get(0).refusal())
                    .isEqualTo("a usage message is a JSON object or an array of them");
            String garbage = "{broken sk-live-123";
            UsageBatch.Entry broken = UsageBatch.decode(garbage).get(0);
            assertThat(broken.refusal())
                    .startsWith("unparsable usage record at line 1")
                    .doesNotContain("sk-live");
            assertThat(broken.payload()).isEqualTo(garbage);
            assertThat(broken.index()).isEqualTo(-1);
        }

        @Test
        void anEmptyBatchHasNoRecords() {
            assertThat(UsageBatch.decode("[]")).isEmpty();
            assertThat(UsageBatch.decode(UsageBatch.encode(List.of()))).isEmpty();
        }

        @Test
        void hugeAndDeepRecordsAreReadOrRefusedWithoutFailing() {
            RequestCompleted huge = new RequestCompleted(
                    UUID.randomUUID(),
                    AT,
                    Protocol.OPENAI_CHAT,
                    "ak",
                    null,
                    null,
                    "m".repeat(2_000_000),
                    null,
                    1,
                    200,
                    null,
                    5,
                    null,
                    null,
                    null,
                    false,
                    false,
                    true,
                    false);
            assertThat(UsageBatch.decode(UsageBatch.encode(List.of(Json.write(huge)))))
                    .singleElement()
                    .extracting(UsageBatch.Entry::record)
                    .isEqualTo(huge);
            String deep = "[" + "[".repeat(5_000) + "]".repeat(5_000) + "]";
            assertThat(UsageBatch.decode(deep))
                    .singleElement()
                    .satisfies(entry -> assertThat(entry.refused()).isTrue());
        }
    }

    @Nested
    class Gathering {

        @Test
        void aBatchEndsAtItsRecordLimit() {
            UsageBatch.Collector collector = new UsageBatch.Collector(3);

            assertThat(collector.add("{\"a\":1}")).isEmpty();
            assertThat(collector.add("{\"b\":2}")).isEmpty();
            assertThat(collector.size()).isEqualTo(2);
            assertThat(collector.add("{\"c\":3}")).containsExactly(List.of("{\"a\":1}", "{\"b\":2}", "{\"c\":3}"));
            assertThat(collector.isEmpty()).isTrue();
        }

        @Test
        void aBatchNeverExceedsTheCharacterLimitAndAnOversizedRecordGoesAlone() {
            UsageBatch.Collector collector = new UsageBatch.Collector(10_000);
            String record = "{\"m\":\"" + "x".repeat(1_000) + "\"}";
            List<List<String>> sent = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                sent.addAll(collector.add(record));
            }
            sent.add(collector.drain());
            assertThat(sent)
                    .allSatisfy(batch ->
                            assertThat(UsageBatch.encode(batch).length()).isLessThanOrEqualTo(UsageBatch.MAX_CHARS));
            assertThat(sent.stream().mapToInt(List::size).sum()).isEqualTo(1_000);
            assertThat(sent.size()).isBetween(4, 5);

            String oversized = "{\"m\":\"" + "y".repeat(UsageBatch.MAX_CHARS) + "\"}";
            collector.add(record);
            assertThat(collector.add(oversized)).containsExactly(List.of(record), List.of(oversized));
            assertThat(collector.isEmpty()).isTrue();
        }

        @Test
        void drainingLeavesItEmptyAndALimitBelowOneIsRefused() {
            UsageBatch.Collector collector = new UsageBatch.Collector(5);
            collector.add("{}");

            assertThat(collector.drain()).containsExactly("{}");
            assertThat(collector.drain()).isEmpty();
            assertThatThrownBy(() -> new UsageBatch.Collector(0)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
