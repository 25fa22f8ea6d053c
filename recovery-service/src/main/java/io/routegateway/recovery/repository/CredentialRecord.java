package io.routegateway.recovery.repository;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.ModelMappings;
import io.routegateway.core.model.Platform;
import io.routegateway.core.state.AccountState;

/**
 * One {@code route_credentials} row as recovery reads it.
 *
 * @param encryptedSecret the sealed upstream secret; opened only right before a model test
 * @param config the parsed {@code config_json}, null when it is not a valid JSON object (every
 *     reader of it is forgiving)
 * @param oauthAccountId the platform account an OAuth-managed official credential's access token
 *     belongs to ({@code oauth_account_id}), null for api keys, static tokens and unknown accounts: a
 *     Codex model test names it in {@code chatgpt-account-id}, as gateway requests do
 */
public record CredentialRecord(
        String id,
        Platform platform,
        CredentialKind kind,
        String baseUrl,
        String encryptedSecret,
        JsonNode config,
        AccountState account,
        boolean archived,
        String oauthAccountId) {

    public List<ModelMapping> modelMappings() {
        return ModelMappings.fromConfigJson(config);
    }

    /** Never prints the secret, sealed or not. */
    @Override
    public String toString() {
        return "CredentialRecord[id=" + id + ", platform=" + platform.wire() + ", kind=" + kind.wire() + ", status="
                + account.status().wire() + "]";
    }
}
