package io.routegateway.core.forward;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialEvent.AttemptSucceeded;
import io.routegateway.core.event.CredentialEvent.TransientFailureRecorded;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SuccessCoalescerTests {

    private static final Instant T0 = Instant.parse("2026-12-02T04:00:00Z");
    private static final Duration WINDOW = Duration.ofSeconds(1);

    private final SuccessCoalescer coalescer = new SuccessCoalescer(WINDOW);

    private static AttemptSucceeded success(String credential, String model, long atMillis) {
        return new AttemptSucceeded(UUID.randomUUID(), credential, T0.plusMillis(atMillis), model);
    }

    private static TransientFailureRecorded failure(String credential, String model, long atMillis) {
        return new TransientFailureRecorded(
                UUID.randomUUID(), credential, T0.plusMillis(atMillis), model, "upstream_status", 429, "x", null);
    }

    private List<CredentialEvent> offer(CredentialEvent event, long atMillis) {
        return coalescer.offer(event, false, T0.plusMillis(atMillis));
    }

    @Test
    void theFirstSuccessOfAKeyGoesAtOnceAndTheRestOfItsWindowIsHeldAsTheLatest() {
        AttemptSucceeded first = success("a", "m", 0);
        assertThat(offer(first, 0)).containsExactly(first);
        assertThat(offer(success("a", "m", 100), 100)).isEmpty();
        AttemptSucceeded latest = success("a", "m", 200);
        assertThat(offer(latest, 200)).isEmpty();
        assertThat(coalescer.heldCount()).isEqualTo(1);

        assertThat(coalescer.due(T0.plusMillis(999)))
                .as("the window has not ended")
                .isEmpty();
        assertThat(coalescer.due(T0.plusMillis(1000))).containsExactly(latest);
        assertThat(coalescer.heldCount()).isZero();
    }

    @Test
    void keysAreCredentialAndModel() {
        AttemptSucceeded am = success("a", "m", 0);
        AttemptSucceeded an = success("a", "n", 1);
        AttemptSucceeded bm = success("b", "m", 2);
        AttemptSucceeded aNoModel = success("a", null, 3);
        assertThat(offer(am, 0)).containsExactly(am);
        assertThat(offer(an, 1)).containsExactly(an);
        assertThat(offer(bm, 2)).containsExactly(bm);
        assertThat(offer(aNoModel, 3)).containsExactly(aNoModel);
    }

    @Test
    void aSuccessThatChangedTheViewGoesAtOnceAndReplacesWhatWasHeld() {
        offer(success("a", "m", 0), 0);
        offer(success("a", "m", 100), 100);
        AttemptSucceeded clearing = success("a", "m", 200);
        assertThat(coalescer.offer(clearing, true, T0.plusMillis(200))).containsExactly(clearing);
        assertThat(coalescer.heldCount()).isZero();
        assertThat(coalescer.due(T0.plusMillis(5000))).isEmpty();
    }

    @Test
    void aFailureReleasesItsCredentialsHeldSuccessesAheadOfIt() {
        offer(success("a", "m", 0), 0);
        offer(success("a", "n", 0), 0);
        offer(success("b", "m", 0), 0);
        AttemptSucceeded heldAm = success("a", "m", 10);
        AttemptSucceeded heldAn = success("a", "n", 20);
        AttemptSucceeded heldBm = success("b", "m", 30);
        offer(heldAm, 10);
        offer(heldAn, 20);
        offer(heldBm, 30);
        TransientFailureRecorded failed = failure("a", "m", 40);

        assertThat(offer(failed, 40)).containsExactly(heldAm, heldAn, failed);
        assertThat(coalescer.heldCount()).as("b's success is not a's").isEqualTo(1);
        assertThat(coalescer.heldCount("a")).isZero();
        assertThat(coalescer.heldCount("b")).isEqualTo(1);
        assertThat(coalescer.due(T0.plusMillis(1000))).containsExactly(heldBm);
    }

    @Test
    void theOrderOfOneCredentialsEventsIsKept() {
        // whatever is held or released, the published sequence of a credential is a subsequence of
        // what happened that ends with every failure in place and nothing after its time
        List<CredentialEvent> happened = new ArrayList<>();
        List<CredentialEvent> published = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            long at = i * 37L;
            CredentialEvent event = i % 17 == 0 ? failure("a", "m", at) : success("a", i % 3 == 0 ? "n" : "m", at);
            happened.add(event);
            published.addAll(offer(event, at));
            published.addAll(coalescer.due(T0.plusMillis(at)));
        }
        published.addAll(coalescer.drain());
        assertThat(happened).containsSubsequence(published);
        assertThat(published)
                .containsAll(happened.stream()
                        .filter(event -> !(event instanceof AttemptSucceeded))
                        .toList());
        assertThat(published.size()).isLessThan(happened.size());
    }

    @Test
    void forgetDropsTheHeldSuccessesOfCredentialsWhoseNewerStateArrived() {
        offer(success("a", "m", 0), 0);
        offer(success("b", "m", 0), 0);
        offer(success("a", "m", 10), 10);
        AttemptSucceeded heldB = success("b", "m", 10);
        offer(heldB, 10);
        coalescer.forget(Set.of("a"));
        assertThat(coalescer.due(T0.plusMillis(2000))).containsExactly(heldB);
        assertThat(offer(failure("a", "m", 2000), 2000)).hasSize(1);
    }

    @Test
    void aZeroWindowPublishesEverySuccess() {
        SuccessCoalescer none = new SuccessCoalescer(Duration.ZERO);
        for (int i = 0; i < 5; i++) {
            AttemptSucceeded success = success("a", "m", i);
            assertThat(none.offer(success, false, T0.plusMillis(i))).containsExactly(success);
        }
        assertThat(none.heldCount()).isZero();
    }

    @Test
    void idleKeysAreForgottenSoMemoryStaysBounded() {
        for (int i = 0; i < 1000; i++) {
            offer(success("c" + i, "m", 0), 0);
        }
        assertThat(coalescer.rememberedKeys()).isEqualTo(1000);
        coalescer.due(T0.plus(WINDOW));
        assertThat(coalescer.rememberedKeys()).isZero();
        AttemptSucceeded again = success("c1", "m", 1000);
        assertThat(offer(again, 1000)).containsExactly(again);
    }

    @Test
    void drainReleasesEverythingHeld() {
        offer(success("a", "m", 0), 0);
        AttemptSucceeded held = success("a", "m", 1);
        offer(held, 1);
        assertThat(coalescer.drain()).containsExactly(held);
        assertThat(coalescer.heldCount()).isZero();
    }

    @Test
    void aNegativeWindowIsRefused() {
        assertThatThrownBy(() -> new SuccessCoalescer(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
