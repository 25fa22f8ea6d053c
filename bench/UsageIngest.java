import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Puts a fixed load on the usage pipeline alone: RECORDS request-completed.v1 records for access key
 * TAG on route.usage, in gateway-style batches of BATCH records (one JSON array per message, as
 * UsagePublisher sends them), as fast as the broker takes them. bench/usage_ingest.sh times how long
 * state-service takes to store them and what that costs state-service and PostgreSQL per record.
 *
 * With RATE (records a second) the messages are paced, one every BATCH/RATE seconds, as gateways
 * send them at a steady load; without it they go as fast as the broker takes them (a backlog).
 *
 *   java -cp <kafka-clients and its dependencies> bench/UsageIngest.java BOOTSTRAP TAG RECORDS BATCH [RATE]
 */
public class UsageIngest {

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String tag = args[1];
        int records = Integer.parseInt(args[2]);
        int batch = Integer.parseInt(args[3]);
        double rate = args.length > 4 ? Double.parseDouble(args[4]) : 0;
        long nanosPerMessage = rate > 0 ? (long) (batch / rate * 1e9) : 0;
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            Future<RecordMetadata> last = null;
            long epoch = System.currentTimeMillis();
            long start = System.nanoTime();
            for (int sent = 0, message = 0; sent < records; message++) {
                if (nanosPerMessage > 0) {
                    long due = start + message * nanosPerMessage;
                    for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                        java.util.concurrent.locks.LockSupport.parkNanos(wait);
                    }
                }
                StringBuilder json = new StringBuilder("[");
                for (int i = 0; i < batch && sent < records; i++, sent++) {
                    if (i > 0) {
                        json.append(',');
                    }
                    long at = epoch + sent;
                    json.append("{\"type\":\"request-completed.v1\",\"request_id\":\"").append(UUID.randomUUID())
                            .append("\",\"occurred_at\":\"").append(java.time.Instant.ofEpochMilli(at))
                            .append("\",\"protocol\":\"openai_chat\",\"access_key_id\":\"").append(tag)
                            .append("\",\"group_id\":\"g-").append(sent % 5)
                            .append("\",\"credential_id\":\"c-").append(sent % 50)
                            .append("\",\"requested_model\":\"bench-model\",\"model_key\":\"bench-model\",")
                            .append("\"attempts\":1,\"status\":200,\"reason_code\":null,\"latency_ms\":3,")
                            .append("\"ttft_ms\":null,\"input_tokens\":12,\"output_tokens\":8,\"stream\":false,")
                            .append("\"client_disconnected\":false,\"success\":true,\"probe\":false}");
                }
                last = producer.send(new ProducerRecord<>("route.usage", null, json.append(']').toString()));
            }
            if (last != null) {
                last.get();
            }
        }
    }
}
