package io.routegateway.core.select;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import io.routegateway.core.testing.CredentialBuilder;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.select.Fixtures.cred;
import static org.assertj.core.api.Assertions.assertThat;

class CredentialChooserTests {

    private static PoolCandidate c(CredentialBuilder cred) {
        return new PoolCandidate(cred.build(), "m", "m");
    }

    @Test
    void autoWeightFormula() {
        assertThat(CredentialStats.NONE.autoWeight()).isEqualTo(50);
        assertThat(new CredentialStats(10, 0).autoWeight()).isEqualTo(92);
        assertThat(new CredentialStats(0, 10).autoWeight()).isEqualTo(8);
        assertThat(new CredentialStats(0, 1_000_000).autoWeight()).isEqualTo(1);
        assertThat(new CredentialStats(1_000_000, 0).autoWeight()).isEqualTo(100);
    }

    @Test
    void manualWeightIsUsedAsConfiguredAndAutoUsesStats() {
        assertThat(CredentialChooser.effectiveWeight(cred("a").manualWeight(70).build(), new CredentialStats(0, 9)))
                .isEqualTo(70);
        assertThat(CredentialChooser.effectiveWeight(cred("a").build(), new CredentialStats(8, 0)))
                .isEqualTo(90);
        assertThat(CredentialChooser.effectiveWeight(cred("a").manualWeight(0).build(), null))
                .isZero();
    }

    @Test
    void affinityCredentialWinsWhenEligible() {
        List<PoolCandidate> eligible =
                List.of(c(cred("a").priority(0)), c(cred("b").priority(3)));
        CredentialChooser.Choice choice = CredentialChooser.choose(eligible, "b", Map.of(), new SplittableRandom(1))
                .orElseThrow();
        assertThat(choice.candidate().credentialId()).isEqualTo("b");
        assertThat(choice.affinityHit()).isTrue();
        assertThat(CredentialChooser.choose(eligible, "gone", Map.of(), new SplittableRandom(1))
                        .orElseThrow()
                        .affinityHit())
                .isFalse();
    }

    @Test
    void lowestPriorityTierThenWeightedWithinIt() {
        List<PoolCandidate> eligible = List.of(
                c(cred("p1").priority(1).manualWeight(100)),
                c(cred("a").priority(0).manualWeight(20)),
                c(cred("b").priority(0).manualWeight(80)));
        SplittableRandom rng = new SplittableRandom(9);
        int b = 0;
        for (int i = 0; i < 10_000; i++) {
            String id = CredentialChooser.choose(eligible, null, Map.of(), rng)
                    .orElseThrow()
                    .candidate()
                    .credentialId();
            assertThat(id).isNotEqualTo("p1");
            if (id.equals("b")) {
                b++;
            }
        }
        assertThat(b).isBetween(7700, 8300);
    }

    @Test
    void weightZeroIsNeverChosen() {
        assertThat(CredentialChooser.choose(
                        List.of(c(cred("z").manualWeight(0))), null, Map.of(), new SplittableRandom(1)))
                .isEmpty();
    }
}
