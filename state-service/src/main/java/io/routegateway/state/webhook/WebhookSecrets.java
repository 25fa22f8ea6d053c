package io.routegateway.state.webhook;

import io.routegateway.core.crypto.SecretBox;

/** What a webhook's sealed secret is bound to: its endpoint id (a sealed secret moved to another endpoint does not open). */
final class WebhookSecrets {

    private WebhookSecrets() {}

    static SecretBox.Binding binding(String endpointId) {
        return new SecretBox.Binding(endpointId, "webhook", "webhook");
    }
}
