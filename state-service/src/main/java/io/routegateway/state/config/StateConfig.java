package io.routegateway.state.config;

import jakarta.validation.constraints.Size;

import io.smallrye.config.ConfigMapping;

/** Settings of state-service, under {@code state.*}. */
@ConfigMapping(prefix = "state")
public interface StateConfig {

    /** The admin API. */
    Admin admin();

    interface Admin {

        /**
         * Bearer token that every admin API call must present ({@code STATE_ADMIN_TOKEN}). Required:
         * only the {@code dev} and {@code test} profiles have a local default.
         */
        @Size(min = 16, message = "must be at least 16 characters")
        String token();
    }
}
