package io.routegateway.state.outcome;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.Topics;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.support.OutcomeFixtures;
import io.routegateway.state.support.TestKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.OutcomeFixtures.PRIMARY_CONFIG;
import static io.routegateway.state.support.OutcomeFixtures.credential;
import static io.routegateway.state.support.OutcomeFixtures.failure;
import static io.routegateway.state.support.OutcomeFixtures.json;
import static io.routegateway.state.support.OutcomeFixtures.processed;
import static io.routegateway.state.support.Records.header;
import static io.routegateway.state.support.Records.only;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Messages that can never be applied land on the dead-letter topic with their error; the next good one is applied. */
@QuarkusTest
class PoisonMessageTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Inject
    SecretBox secretBox;

    @Inject
    MeterRegistry registry;

    @Test
    void poisonGoesToTheDeadLetterTopicAndTheNextGoodMessageIsApplied() {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-poison");
        String unknownCredential = "cred-missing-" + UUID.randomUUID();
        String unparsable = "{not json " + UUID.randomUUID();
        String unknownType = "{\"type\":\"credential-exploded.v9\",\"event_id\":\"" + UUID.randomUUID()
                + "\",\"credential_id\":\"" + id + "\",\"occurred_at\":\"2026-05-01T00:00:00Z\"}";
        CredentialEvent forMissing = failure(unknownCredential, Instant.parse("2026-05-01T00:00:00Z"), "upstream-sol");
        CredentialEvent good = failure(id, Instant.parse("2026-05-01T00:00:01Z"), "upstream-sol");
        double deadLetteredBefore = deadLettered();

        TestKafka.send(Topics.OUTCOMES, id, unparsable);
        TestKafka.send(Topics.OUTCOMES, id, unknownType);
        TestKafka.send(Topics.OUTCOMES, unknownCredential, json(forMissing));
        TestKafka.send(Topics.OUTCOMES, id, json(good));

        await().atMost(PATIENCE).until(() -> processed(good.eventId()) == 1);
        assertThat(credential(id).transientFailureCount).isEqualTo(1);

        await().atMost(PATIENCE).untilAsserted(() -> {
            List<ConsumerRecord<String, String>> dead = TestKafka.readAll(Topics.OUTCOMES_DEAD_LETTER);
            ConsumerRecord<String, String> garbage = only(dead, unparsable);
            assertThat(garbage.key()).isEqualTo(id);
            assertThat(header(garbage, "dead-letter-reason")).contains("unparsable outcome event");
            assertThat(header(garbage, "dead-letter-topic")).isEqualTo(Topics.OUTCOMES);

            ConsumerRecord<String, String> strange = only(dead, unknownType);
            assertThat(header(strange, "dead-letter-reason")).contains("unknown event type credential-exploded.v9");

            ConsumerRecord<String, String> orphan = only(dead, json(forMissing));
            assertThat(orphan.key()).isEqualTo(unknownCredential);
            assertThat(header(orphan, "dead-letter-reason")).contains("unknown credential " + unknownCredential);
            assertThat(header(orphan, "dead-letter-exception-class-name"))
                    .isEqualTo(UnknownCredentialException.class.getName());
        });
        // at least these three (a shared broker may carry other modules' strays for unknown credentials)
        assertThat(deadLettered()).isGreaterThanOrEqualTo(deadLetteredBefore + 3);
        assertThat(processed(forMissing.eventId())).isZero();
    }

    private double deadLettered() {
        return Search.in(registry).name(StateMetrics.EVENTS_DEAD_LETTERED).counters().stream()
                .mapToDouble(counter -> counter.count())
                .sum();
    }
}
