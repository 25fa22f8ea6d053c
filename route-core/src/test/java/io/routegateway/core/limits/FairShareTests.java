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
    void anUncontendedPoolAdmitsEveryone() {
        assertThat(FairShare.isContended(10, 9)).isFalse();
        assertThat(FairShare.admits(10, 9, LOADS, FairShareTests::weight, "a", 1))
                .isTrue();
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
        assertThat(FairShare.underShare(Long.MAX_VALUE, Long.MAX_VALUE / 2, 1000, 1000))
                .isTrue();
        assertThat(FairShare.underShare(1, Long.MAX_VALUE, 1, 1000)).isFalse();
    }
}
