package io.routegateway.gateway.trace;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The value of every {@code key} parameter is replaced; nothing else in the query changes. */
class QueryKeyRedactionTests {

    @Test
    void theKeyParameterIsRedactedWhereverItStands() {
        assertThat(QueryKeyRedaction.redact("key=rk-secret")).isEqualTo("key=REDACTED");
        assertThat(QueryKeyRedaction.redact("alt=sse&key=rk-secret")).isEqualTo("alt=sse&key=REDACTED");
        assertThat(QueryKeyRedaction.redact("KEY=rk-secret&alt=sse")).isEqualTo("KEY=REDACTED&alt=sse");
        assertThat(QueryKeyRedaction.redact("key=a&key=b")).isEqualTo("key=REDACTED&key=REDACTED");
    }

    @Test
    void otherParametersAndOddShapesStayAsTheyWere() {
        assertThat(QueryKeyRedaction.redact("alt=sse")).isEqualTo("alt=sse");
        assertThat(QueryKeyRedaction.redact("monkey=1&keys=2")).isEqualTo("monkey=1&keys=2");
        assertThat(QueryKeyRedaction.redact("key")).isEqualTo("key");
        assertThat(QueryKeyRedaction.redact("")).isEqualTo("");
        assertThat(QueryKeyRedaction.redact("a=1&&b=2")).isEqualTo("a=1&&b=2");
        assertThat(QueryKeyRedaction.redact("a=1&")).isEqualTo("a=1&");
    }
}
