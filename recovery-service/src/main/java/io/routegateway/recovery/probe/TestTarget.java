package io.routegateway.recovery.probe;

import io.routegateway.core.model.ModelKeys;
import io.routegateway.core.policy.ValidationException;
import io.routegateway.recovery.repository.CredentialRecord;

/**
 * What a model test asks for: the requested name, the name sent upstream and the model key the
 * outcome is charged under, resolved with the same rules as forwarding.
 */
record TestTarget(String requestedModel, String upstreamModel, String modelKey) {

    static final String MODEL_NOT_MAPPED = "validation.test_model_not_mapped";

    /**
     * @param requestedModel the model to test, null or blank for the credential's default (the first
     *     non-fallback mapping, or the platform's probe model)
     * @throws ValidationException when the credential does not serve the model
     */
    static TestTarget resolve(CredentialRecord credential, String requestedModel) {
        String name = requestedModel == null || requestedModel.isBlank()
                ? ModelKeys.firstNonFallbackModel(credential.platform(), credential.kind(), credential.modelMappings())
                : requestedModel.strip();
        String upstream = ModelKeys.upstreamModel(credential.kind(), credential.modelMappings(), name)
                .orElseThrow(() -> new ValidationException(
                        MODEL_NOT_MAPPED, "credential " + credential.id() + " does not map model '" + name + "'"));
        return new TestTarget(name, upstream, ModelKeys.stripOneM(upstream));
    }
}
