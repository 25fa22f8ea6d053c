package io.routegateway.core.access;

import java.util.List;

import io.routegateway.core.model.ModelKeys;

/**
 * An AccessKey's model restriction: each entry is an exact model name, or a prefix ending in
 * {@code *} ({@code gpt-5*} admits {@code gpt-5} and {@code gpt-5.6-sol}; {@code *} alone admits
 * everything). A requested name with a {@code [1m]} suffix also matches through its stripped form,
 * because it is the same upstream model with a different beta header.
 */
public final class ModelPatterns {

    private ModelPatterns() {}

    /** Whether any pattern admits {@code model}. An empty pattern list admits nothing. */
    public static boolean matchesAny(List<String> patterns, String model) {
        if (model == null) {
            return false;
        }
        String stripped = ModelKeys.stripOneM(model);
        for (int i = 0, n = patterns.size(); i < n; i++) {
            String pattern = patterns.get(i);
            if (matches(pattern, model) || (stripped.length() != model.length() && matches(pattern, stripped))) {
                return true;
            }
        }
        return false;
    }

    /** Exact match, or prefix match for a pattern ending in {@code *}. */
    public static boolean matches(String pattern, String model) {
        if (pattern == null || model == null) {
            return false;
        }
        int last = pattern.length() - 1;
        if (last >= 0 && pattern.charAt(last) == '*') {
            return model.regionMatches(0, pattern, 0, last);
        }
        return pattern.equals(model);
    }
}
