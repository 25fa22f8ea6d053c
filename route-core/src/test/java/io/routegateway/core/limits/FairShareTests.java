package io.routegateway.core.limits;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FairShareTests {

    static final Map<String, Long> LOADS = Map.of("a", 6L, "b", 2L, "c", 0L);

    static int weight(String team) {
        return switch (team) {
            case "a" -> 1;
            case "b" -> 2;
            default -> 1;
        };
    }

    @Test
    void aloneATeamBorrowsEverySlotUntilThePoolIsFull() {
        assertThat(FairShare.admits(4, 3, Map.of("a", 3L), team -> 1, "a", 1)).isTrue();
        assertThat(FairShare.admits(4, 4, Map.of("a", 4L), team -> 1, "a", 1)).isFalse();
        assertThat(FairShare.isContended(4, 3)).isFalse();
        assertThat(FairShare.isContended(4, 4)).isTrue();
    }

    @Test
    void aTeamOverItsShareLeavesTheSlotsAnotherActiveTeamsShareClaims() {
        // K = 4, a and b equal: shares 2. b is active (a request in the last minute), none in flight.
        assertThat(FairShare.admits(4, 2, Map.of("a", 2L, "b", 0L), team -> 1, "a", 1))
                .as("two slots free, both b's")
                .isFalse();
        assertThat(FairShare.admits(4, 1, Map.of("a", 1L, "b", 0L), team -> 1, "a", 1))
                .as("under its own share")
                .isTrue();
        assertThat(FairShare.admits(4, 3, Map.of("a", 2L, "b", 1L), team -> 1, "a", 1))
                .as("one slot free, b's second")
                .isFalse();
        assertThat(FairShare.admits(4, 2, Map.of("a", 2L, "b", 0L), team -> 1, "b", 1))
                .as("b itself is under its share")
                .isTrue();
        // a borrowed all four before b came: b is still admitted (it waits for a slot), a is not
        assertThat(FairShare.admits(4, 4, Map.of("a", 4L, "b", 1L), team -> 1, "b", 1))
                .isTrue();
        assertThat(FairShare.admits(4, 3, Map.of("a", 3L, "b", 1L), team -> 1, "a", 1))
                .as("the slot a's end freed is b's")
                .isFalse();
    }

    @Test
    void aTeamAtItsShareBorrowsWhatTheOthersDoNotClaim() {
        // K = 8, equal shares 4: b holds its share (two of its requests still waiting), one slot is free
        assertThat(FairShare.admits(8, 6, Map.of("a", 4L, "b", 4L), team -> 1, "a", 1))
                .isTrue();
        // weights a 1, b 3 on K = 8: b's share 6, it holds 2, so 4 are claimed and 1 is free
        assertThat(FairShare.admits(8, 3, Map.of("a", 1L, "b", 2L), team -> team.equals("b") ? 3 : 1, "a", 1))
                .as("a at its share 2 … 1 in flight is under it")
                .isTrue();
        assertThat(FairShare.admits(8, 4, Map.of("a", 2L, "b", 2L), team -> team.equals("b") ? 3 : 1, "a", 1))
                .as("a at its share 2: 3 free, 4 claimed")
                .isFalse();
    }

    @Test
    void onlyTheTeamsThatDrawOnThePoolClaimSlots() {
        Map<String, Long> active = Map.of("a", 2L, "elsewhere", 0L);
        assertThat(FairShare.admits(4, 2, active, team -> 1, team -> !team.equals("elsewhere"), "a", 1))
                .isTrue();
        assertThat(FairShare.admits(4, 2, active, team -> 1, null, "a", 1)).isFalse();
    }

    @Test
    void anUnboundedPoolHasNoFairShare() {
        assertThat(FairShare.isContended(0, 1_000)).isFalse();
        assertThat(FairShare.isContended(-1, 1_000)).isFalse();
        assertThat(FairShare.admits(0, 1_000, LOADS, FairShareTests::weight, "a", 1))
                .isTrue();
    }

    @Test
    void contendedATeamAtOrAboveItsWeightedShareYields() {
        // K = 8, weights a 1, b 2, c 1: shares 2, 4, 2.
        assertThat(FairShare.isContended(8, 8)).isTrue();
        assertThat(FairShare.admits(8, 8, LOADS, FairShareTests::weight, "a", 1))
                .isFalse();
        assertThat(FairShare.admits(8, 8, LOADS, FairShareTests::weight, "b", 2))
                .isTrue();
        assertThat(FairShare.admits(8, 8, LOADS, FairShareTests::weight, "c", 1))
                .isTrue();
        assertThat(FairShare.admits(8, 8, Map.of("a", 6L, "b", 4L), FairShareTests::weight, "b", 2))
                .as("b at 4 is under its share 8 × 2/3")
                .isTrue();
        assertThat(FairShare.admits(8, 8, Map.of("a", 2L, "b", 6L), FairShareTests::weight, "b", 2))
                .as("b at 6 is over its share 8 × 2/3")
                .isFalse();
    }

    @Test
    void theRequestingTeamCountsAmongTheActiveEvenWhenNew() {
        // d is not yet active: weights a 1, b 2, c 1, d 4 → d's share 8 x 4/8 = 4; it has 0.
        assertThat(FairShare.admits(8, 8, LOADS, FairShareTests::weight, "d", 4))
                .isTrue();
    }

    @Test
    void everyTeamMayHoldAtLeastOne() {
        // K = 2 among many teams: a share under 1 still allows one request.
        Map<String, Long> many = Map.of("a", 0L, "b", 1L, "c", 1L, "d", 0L, "e", 0L);
        assertThat(FairShare.admits(2, 2, many, team -> 1, "a", 1)).isTrue();
        assertThat(FairShare.admits(2, 2, many, team -> 1, "b", 1)).isFalse();
    }

    @Test
    void sharesAreComparedExactly() {
        // K = 10, three equal teams: share 3.33; 3 is under it, 4 is not.
        assertThat(FairShare.underShare(10, 3, 1, 3)).isTrue();
        assertThat(FairShare.underShare(10, 4, 1, 3)).isFalse();
        // K = 9: share exactly 3; at it yields.
        assertThat(FairShare.underShare(9, 3, 1, 3)).isFalse();
        assertThat(FairShare.underShare(9, 2, 1, 3)).isTrue();
    }

    @Test
    void keysWithoutATeamAreNotSubjectToIt() {
        assertThat(FairShare.admits(1, 100, LOADS, team -> 1, null, 1)).isTrue();
    }

    @Test
    void hugeNumbersDoNotOverflow() {
        assertThat(FairShare.admits(Long.MAX_VALUE, 1, Map.of("a", Long.MAX_VALUE, "b", 0L), team -> 1000, "a", 1000))
                .as("a claim that saturates is refused")
                .isFalse();
        assertThat(FairShare.admits(Long.MAX_VALUE, Long.MAX_VALUE, Map.of("a", 1L), team -> 1000, "a", 1000))
                .isTrue();
        assertThat(FairShare.underShare(Long.MAX_VALUE, Long.MAX_VALUE / 2, 1000, 1000))
                .isTrue();
        assertThat(FairShare.underShare(1, Long.MAX_VALUE, 1, 1000)).isFalse();
    }
}
