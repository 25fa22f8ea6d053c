package io.routegateway.state.credential;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.headers.CredentialHeaders;
import io.routegateway.core.limits.CredentialLimits;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Body of creating or updating (only the fields sent change) a credential.
 *
 * @param id optional on create, generated when absent; ignored on update
 * @param platform {@code claude}, {@code codex}, {@code gemini}, {@code grok} or {@code openai}
 * @param kind {@code api} or {@code official}; the platform must accept it
 * @param secret write-only: sealed at rest and never returned (required on create; on update, sent
 *     only to replace it)
 * @param modelMappings {@code [{"from": requested, "to": upstream}]}; {@code from "*"} is the
 *     catch-all, {@code to} blank or {@code "*"} passes the name through
 * @param failurePolicy {@code retry_count}, {@code retry_interval_ms}, {@code
 *     semantic_error_threshold}, {@code cooldown_enabled}, {@code cooldown_seconds}, {@code
 *     error_status_enabled}; missing fields keep their defaults, null = all defaults
 * @param recovery {@code {"mode":"off"}}, {@code {"mode":"scheduled","times":["03:00"],
 *     "time_zone":"Asia/Shanghai"}} or {@code {"mode":"healthcheck","interval_minutes":30}}
 * @param weight manual weight 1..100; 0 is refused with {@code validation.weight}
 * @param quotaRemaining null = unlimited
 * @param groupIds the groups whose pool holds this credential
 * @param limits what the credential itself allows: {@code {"rpm_limit", "max_parallel_requests"}},
 *     each optional, null = no limit; a credential at one is skipped at selection ({@code
 *     credential_full}). Null or absent = none (on update: null removes them, an object replaces them)
 * @param upstreamHeaders the account-steering headers sent upstream: {@code {"openai_organization",
 *     "openai_project", "openai_beta", "anthropic_beta", "client_may_set": [header names a client may
 *     set itself]}}, each optional ({@code validation.upstream_headers}, an unknown field {@code
 *     validation.unknown_field}); null or absent = none (on update: null removes them, an object replaces them)
 */
@Schema(name = "CredentialInput")
public record CredentialInput(
        String id,
        String name,

        @Schema(enumeration = {"claude", "codex", "gemini", "grok", "openai"})
        String platform,

        @Schema(enumeration = {"api", "official"}) String kind,
        String baseUrl,
        @Schema(writeOnly = true) String secret,
        List<MappingInput> modelMappings,
        @Schema(implementation = Object.class) JsonNode failurePolicy,
        @Schema(implementation = Object.class) JsonNode recovery,
        Boolean enabled,
        Boolean inPool,
        Boolean archived,
        Integer priority,
        @Schema(enumeration = {"auto", "manual"}) String weightMode,
        Integer weight,
        Long quotaRemaining,
        List<String> groupIds,
        @Schema(implementation = CredentialLimits.class) JsonNode limits,
        @Schema(implementation = CredentialHeaders.class) JsonNode upstreamHeaders) {

    /** One model mapping as sent. */
    public record MappingInput(String from, String to) {}

    /** Never prints the secret, whoever logs this record. */
    @Override
    public String toString() {
        return "CredentialInput[id=" + id + ", name=" + name + ", platform=" + platform + ", kind=" + kind + ", secret="
                + (secret == null ? "absent" : "***") + "]";
    }
}
