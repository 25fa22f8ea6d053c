package io.routegateway.core.admin;

import io.routegateway.core.json.Json;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The error type follows the status alone, so every service's API names the same class the same way. */
class ErrorBodyTests {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "400, invalid_request",
        "405, invalid_request",
        "413, invalid_request",
        "415, invalid_request",
        "422, invalid_request",
        "401, unauthorized",
        "403, forbidden",
        "404, not_found",
        "409, conflict",
        "500, server_error",
        "502, server_error",
        "503, server_error",
    })
    void theTypeFollowsTheStatus(int status, String type) {
        assertThat(ErrorBody.typeFor(status)).isEqualTo(type);
    }

    @ParameterizedTest
    @CsvSource({"404, credential_not_found"})
    void theWireShapeIsErrorCodeMessageType(int status, String code) {
        assertThat(Json.write(ErrorBody.of(status, code, "no credential x")))
                .isEqualTo("{\"error\":{\"code\":\"credential_not_found\",\"message\":\"no credential x\","
                        + "\"type\":\"not_found\"}}");
    }
}
