package io.routegateway.core.model;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Model-key resolution: the key a request is charged under is the upstream name (the mapping's
 * {@code to}) for api accounts and the requested name for official or mapping-less accounts, both
 * with any {@code [1m]} suffix stripped.
 */
public final class ModelKeys {

    static final String ONE_M_SUFFIX = "[1m]";

    private ModelKeys() {}

    /**
     * The upstream model name a request is sent as, or empty when the account does not serve the
     * requested model. Official accounts never rewrite the model.
     */
    public static Optional<String> upstreamModel(
            CredentialKind kind, List<ModelMapping> mappings, String requestedModel) {
        if (requestedModel == null || requestedModel.isBlank()) {
            return Optional.empty();
        }
        if (kind == CredentialKind.OFFICIAL || mappings == null || mappings.isEmpty()) {
            return Optional.of(requestedModel);
        }
        ModelMapping catchAll = null;
        for (ModelMapping mapping : mappings) {
            if (mapping.isCatchAll()) {
                if (catchAll == null) {
                    catchAll = mapping;
                }
            } else if (mapping.from().equals(requestedModel) || mapping.from().equals(stripOneM(requestedModel))) {
                return Optional.of(mapping.passesThrough() ? requestedModel : keepOneM(requestedModel, mapping.to()));
            }
        }
        if (catchAll != null) {
            return Optional.of(catchAll.passesThrough() ? requestedModel : keepOneM(requestedModel, catchAll.to()));
        }
        return Optional.empty();
    }

    /**
     * A {@code [1m]} request keeps asking for the 1M context through a mapping whose target does not
     * name it: same upstream model (same key), only the beta header differs.
     */
    private static String keepOneM(String requestedModel, String target) {
        if (requestedModel.endsWith(ONE_M_SUFFIX) && !target.endsWith(ONE_M_SUFFIX)) {
            return target + ONE_M_SUFFIX;
        }
        return target;
    }

    /** The model key a request is charged under, or empty when the account does not serve it. */
    public static Optional<String> modelKey(CredentialKind kind, List<ModelMapping> mappings, String requestedModel) {
        return upstreamModel(kind, mappings, requestedModel).map(ModelKeys::stripOneM);
    }

    public static String stripOneM(String model) {
        if (model != null && model.endsWith(ONE_M_SUFFIX)) {
            return model.substring(0, model.length() - ONE_M_SUFFIX.length());
        }
        return model;
    }

    /**
     * The model keys an account can serve: the escalation denominator before paused models are
     * excluded. Mapped accounts use their explicit upstream names; official and mapping-less
     * accounts use the platform baseline. Keys already known from model rows are added, so a
     * pass-through catch-all still counts every model it has been charged for.
     */
    public static Set<String> serviceableModelKeys(
            Platform platform, CredentialKind kind, List<ModelMapping> mappings, Set<String> knownKeys) {
        Set<String> keys = new LinkedHashSet<>();
        if (kind == CredentialKind.OFFICIAL || mappings == null || mappings.isEmpty()) {
            keys.addAll(platform.baselineModels());
        } else {
            for (ModelMapping mapping : mappings) {
                if (!mapping.passesThrough()) {
                    keys.add(stripOneM(mapping.to()));
                } else if (!mapping.isCatchAll()) {
                    keys.add(stripOneM(mapping.from()));
                }
            }
        }
        keys.addAll(knownKeys);
        return keys;
    }

    /**
     * The client-facing names that reach a model key, for the admin panel's aliases; empty when the
     * mapping was removed ("mapping removed").
     */
    public static List<String> aliases(CredentialKind kind, List<ModelMapping> mappings, String modelKey) {
        List<String> aliases = new ArrayList<>();
        if (kind == CredentialKind.OFFICIAL || mappings == null || mappings.isEmpty()) {
            return aliases;
        }
        for (ModelMapping mapping : mappings) {
            if (mapping.isCatchAll()) {
                if (!mapping.passesThrough() && stripOneM(mapping.to()).equals(modelKey)) {
                    aliases.add(mapping.from());
                }
            } else {
                String upstream = mapping.passesThrough() ? mapping.from() : mapping.to();
                if (stripOneM(upstream).equals(modelKey)) {
                    aliases.add(mapping.from());
                }
            }
        }
        return aliases;
    }

    /**
     * Maps a model key back to a requested name for a model test: the first mapping whose upstream
     * name is the key; the key itself for official and mapping-less accounts. Empty when no mapping
     * reaches the key any more.
     */
    public static Optional<String> requestNameFor(CredentialKind kind, List<ModelMapping> mappings, String modelKey) {
        if (kind == CredentialKind.OFFICIAL || mappings == null || mappings.isEmpty()) {
            return Optional.of(modelKey);
        }
        for (ModelMapping mapping : mappings) {
            if (mapping.isCatchAll()) {
                continue;
            }
            String upstream = mapping.passesThrough() ? mapping.from() : mapping.to();
            if (stripOneM(upstream).equals(modelKey)) {
                return Optional.of(mapping.from());
            }
        }
        for (ModelMapping mapping : mappings) {
            if (mapping.isCatchAll()
                    && (mapping.passesThrough() || stripOneM(mapping.to()).equals(modelKey))) {
                return Optional.of(modelKey);
            }
        }
        return Optional.empty();
    }

    /** The default test model: the first non-fallback mapping's requested name. */
    public static Optional<String> firstNonFallbackModel(
            Platform platform, CredentialKind kind, List<ModelMapping> mappings) {
        if (kind != CredentialKind.OFFICIAL && mappings != null) {
            for (ModelMapping mapping : mappings) {
                if (!mapping.isCatchAll()) {
                    return Optional.of(mapping.from());
                }
            }
        }
        return platform.baselineModels().stream().findFirst();
    }
}
