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
     * The model keys the 模型状态 section lists: the keys the account names ({@link #namedModelKeys})
     * followed by every other key that has a row — a removed mapping (已移除映射), a name a
     * pass-through catch-all was charged for — so each can still be seen, paused and cleared. Not
     * the escalation denominator.
     */
    public static Set<String> listedModelKeys(
            Platform platform, CredentialKind kind, List<ModelMapping> mappings, Set<String> knownKeys) {
        Set<String> keys = namedModelKeys(platform, kind, mappings);
        keys.addAll(knownKeys);
        return keys;
    }

    /**
     * The escalation denominator before manual pauses are excluded: only models the account can
     * still serve, as a closed set — {@link #namedModelKeys}. A model row outside it (a removed
     * mapping, a stray name an official account sent as itself) never counts: no request can clear
     * it, so counting it would block escalation for good once its cooldown passed.
     *
     * <p>Empty when the account serves names it cannot enumerate — a pass-through catch-all ({@code
     * *}→{@code *}), or an official / mapping-less account of a platform without a baseline
     * ({@code openai}: its probe model is no baseline). "Every serviceable model is unavailable" can then never be established, so
     * model-scoped failures stay per model (the spec's default); the account still backs off on its
     * account-scoped failures (transport, 401/403, …).
     */
    public static Optional<Set<String>> escalationModelKeys(
            Platform platform, CredentialKind kind, List<ModelMapping> mappings) {
        boolean official = kind == CredentialKind.OFFICIAL || mappings == null || mappings.isEmpty();
        if (!official) {
            for (ModelMapping mapping : mappings) {
                if (mapping.isCatchAll() && mapping.passesThrough()) {
                    return Optional.empty();
                }
            }
        }
        Set<String> keys = namedModelKeys(platform, kind, mappings);
        return keys.isEmpty() ? Optional.empty() : Optional.of(keys);
    }

    /**
     * The keys an account's configuration names, in order: each mapping's upstream key (a fixed
     * catch-all target included: the funnel every other name ends in), or the platform baseline for
     * official and mapping-less accounts.
     */
    static Set<String> namedModelKeys(Platform platform, CredentialKind kind, List<ModelMapping> mappings) {
        Set<String> keys = new LinkedHashSet<>();
        if (kind == CredentialKind.OFFICIAL || mappings == null || mappings.isEmpty()) {
            for (String model : platform.baselineModels()) {
                keys.add(stripOneM(model));
            }
            return keys;
        }
        for (ModelMapping mapping : mappings) {
            if (!mapping.passesThrough()) {
                keys.add(stripOneM(mapping.to()));
            } else if (!mapping.isCatchAll()) {
                keys.add(stripOneM(mapping.from()));
            }
        }
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

    /**
     * The default test model: the first non-fallback mapping's requested name, else the platform's
     * {@link Platform#probeModel} (official accounts, no mappings, or only a catch-all — which
     * serves that name too). Never empty, so every account can be tested and healthchecked.
     */
    public static String firstNonFallbackModel(Platform platform, CredentialKind kind, List<ModelMapping> mappings) {
        if (kind != CredentialKind.OFFICIAL && mappings != null) {
            for (ModelMapping mapping : mappings) {
                if (!mapping.isCatchAll()) {
                    return mapping.from();
                }
            }
        }
        return platform.probeModel();
    }
}
