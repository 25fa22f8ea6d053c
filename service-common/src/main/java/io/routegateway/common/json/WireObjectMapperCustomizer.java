package io.routegateway.common.json;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.jackson.ObjectMapperCustomizer;
import io.routegateway.core.json.Json;

/** Quarkus's ObjectMapper speaks the same wire conventions as every event and snapshot. */
@Singleton
public class WireObjectMapperCustomizer implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        Json.configure(mapper);
    }
}
