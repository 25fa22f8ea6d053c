package io.routegateway.core.state;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ModelStateTests {

    private static final Instant AT = Instant.parse("2026-12-03T10:00:00Z");

    @Test
    void withoutFailureTextsDropsOnlyTheMessageAndTheResponseExcerpt() {
        ModelState row = new ModelState(
                "upstream-sol",
                ModelStatus.OK,
                3,
                AT.plusSeconds(10),
                2,
                "ab12",
                "upstream_status",
                "upstream returned 429",
                "{\"error\":{\"message\":\"rate limited\"}}",
                AT,
                AT.plusSeconds(1));

        ModelState published = row.withoutFailureTexts();

        assertThat(published.lastFailureMessage()).isNull();
        assertThat(published.lastFailureResponseJson()).isNull();
        assertThat(published)
                .usingRecursiveComparison()
                .ignoringFields("lastFailureMessage", "lastFailureResponseJson")
                .isEqualTo(row);
        // what routing and the escalation check read is unchanged
        assertThat(published.isUnavailableAt(AT)).isEqualTo(row.isUnavailableAt(AT));
        assertThat(published.hasFailureState()).isTrue();
    }

    @Test
    void aRowWithoutTextsIsReturnedAsItIs() {
        ModelState paused = ModelState.created("upstream-glm", ModelStatus.PAUSED, AT);

        assertThat(paused.withoutFailureTexts()).isSameAs(paused);
    }
}
