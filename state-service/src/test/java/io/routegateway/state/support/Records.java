package io.routegateway.state.support;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import io.routegateway.state.repository.RequestLogEntity;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

import static org.assertj.core.api.Assertions.assertThat;

/** What the consumer tests read back: dead letters by payload and header, and stored request logs. */
public final class Records {

    private Records() {}

    /** The one record of {@code records} whose value is {@code value} (fails on none or several). */
    public static ConsumerRecord<String, String> only(List<ConsumerRecord<String, String>> records, String value) {
        List<ConsumerRecord<String, String>> matching =
                records.stream().filter(record -> value.equals(record.value())).toList();
        assertThat(matching).hasSize(1);
        return matching.get(0);
    }

    /** The last value of header {@code name} as text (fails when the record has none). */
    public static String header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        assertThat(header).as("header " + name).isNotNull();
        return new String(header.value(), StandardCharsets.UTF_8);
    }

    /** The {@code request_logs} rows of one AccessKey, oldest first. */
    public static List<RequestLogEntity> logs(String accessKey) {
        return OutcomeFixtures.inSession(
                () -> RequestLogEntity.<RequestLogEntity>list("accessKeyId = ?1 order by occurredEpochMs", accessKey));
    }

    public static RequestLogEntity row(List<RequestLogEntity> rows, UUID requestId) {
        return rows.stream()
                .filter(row -> row.requestId.equals(requestId))
                .findFirst()
                .orElseThrow();
    }
}
