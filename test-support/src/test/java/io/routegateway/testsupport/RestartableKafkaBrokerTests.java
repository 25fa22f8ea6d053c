package io.routegateway.testsupport;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A broker taken away and brought back keeps its address and its data. */
class RestartableKafkaBrokerTests {

    @Test
    void restartsOnTheSamePortWithTheSameData() throws Exception {
        try (RestartableKafkaBroker broker = RestartableKafkaBroker.start(KafkaBrokerResource.START_TIMEOUT)) {
            String address = broker.bootstrapServers();
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, address,
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()))) {
                producer.send(new ProducerRecord<>("kept", "key", "before the outage"))
                        .get(30, TimeUnit.SECONDS);
            }

            broker.stop();
            assertThat(broker.isRunning()).isFalse();
            assertThat(BrokerProcess.accepts(Integer.parseInt(address.substring(address.indexOf(':') + 1))))
                    .isFalse();

            broker.restart();

            assertThat(broker.bootstrapServers()).isEqualTo(address);
            assertThat(broker.isRunning()).isTrue();
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, address,
                    ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                    ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()))) {
                List<TopicPartition> partitions = consumer.partitionsFor("kept", Duration.ofSeconds(30)).stream()
                        .map(info -> new TopicPartition(info.topic(), info.partition()))
                        .toList();
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
                String value = null;
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (value == null && System.nanoTime() < deadline) {
                    for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                        value = record.value();
                    }
                }
                assertThat(value).isEqualTo("before the outage");
            }
        }
    }
}
