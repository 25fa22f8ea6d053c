package io.routegateway.e2e.support;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The Prometheus text reader the e2e tests count events with. */
class MetricsTests {

    @Test
    void theValueIsTheTokenAfterTheNameAndLabelsNotAnExemplarOrATimestamp() {
        assertThat(Metrics.value("state_events_duplicate_total 5.0", "state_events_duplicate_total"))
                .isEqualTo(5.0);
        assertThat(Metrics.value(
                        "state_events_duplicate_total 5.0 # {span_id=\"ab\",trace_id=\"cd\"} 1.0 1796528440.123",
                        "state_events_duplicate_total"))
                .isEqualTo(5.0);
        assertThat(Metrics.value(
                        "state_events_applied_total{result=\"noop\",x=\"a b\"} 7.0 1796528440123",
                        "state_events_applied_total"))
                .isEqualTo(7.0);
    }
}
