package io.routegateway.state.config;

import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of state-service, under {@code state.*}. */
@ConfigMapping(prefix = "state")
public interface StateConfig {

    /** The admin API. */
    Admin admin();

    /**
     * Base URL of recovery-service ({@code STATE_RECOVERY_URL}): the admin API's credential test
     * delegates to its {@code POST /recovery/v1/credentials/{id}/test}.
     */
    @WithDefault("http://127.0.0.1:8082")
    @Pattern(regexp = "https?://\\S+", message = "must be an http(s) URL")
    String recoveryUrl();

    interface Admin {

        /**
         * Bearer token that every admin API call must present ({@code STATE_ADMIN_TOKEN}). Required:
         * only the {@code dev} and {@code test} profiles have a local default.
         */
        @Size(min = 16, message = "must be at least 16 characters")
        String token();
    }
}
