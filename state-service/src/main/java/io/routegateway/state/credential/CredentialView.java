package io.routegateway.state.credential;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.headers.CredentialHeaders;
import io.routegateway.core.limits.CredentialLimits;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.policy.FailurePolicy;
import io.routegateway.core.state.AccountState;
import io.routegateway.state.oauth.OAuthAdminView;

/**
 * A credential as the admin API shows it. The secret is never included, sealed or not: {@code
 * has_secret} says one is stored. Failure texts have the credential's own secret masked.
 *
 * @param configJsonValid false when the stored config_json is not a JSON object (hand-edited): the
 *     mappings, policy and recovery shown are then the forgiving defaults, and config writes are
 *     refused until it is repaired
 * @param status the account status ({@code ok}, {@code warning}, {@code error}, {@code paused},
 *     {@code revoked}), also in {@code account}
 * @param account the account-level failure columns of the spec, failure texts masked
 * @param statusTag {@code 错误 N 次} while the failure count shows, else the status
 * @param cooldownBadge {@code 冷却 N 秒} for an account-level cooldown, else null
 * @param unavailableModelsBadge {@code 模型 N 不可用}, else null
 * @param reminders the hover panel's extra lines
 * @param limits what the credential itself allows ({@code rpm_limit}, {@code max_parallel_requests}, null = no limit)
 * @param upstreamHeaders the account-steering headers the credential sends upstream (none: every field null)
 * @param oauth the authorization of an OAuth-managed official credential (never a token); null for api
 *     keys and official credentials holding a static token
 */
public record CredentialView(
        String id,
        String name,
        String platform,
        String kind,
        String baseUrl,
        boolean hasSecret,
        List<ModelMapping> modelMappings,
        FailurePolicy failurePolicy,
        JsonNode recovery,
        boolean configJsonValid,
        boolean enabled,
        boolean archived,
        boolean inPool,
        int priority,
        String weightMode,
        int weight,
        Long quotaRemaining,
        CredentialLimits limits,
        CredentialHeaders upstreamHeaders,
        List<String> groupIds,
        String status,
        AccountState account,
        String statusTag,
        String cooldownBadge,
        String unavailableModelsBadge,
        List<String> reminders,
        long stateVersion,
        Instant createdAt,
        Instant updatedAt,
        OAuthAdminView oauth) {}
