package io.routegateway.state.admin;

import java.net.URI;
import java.net.URISyntaxException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import io.routegateway.core.model.Protocol;
import io.routegateway.core.model.WeightMode;

/** Checks of admin input that are about its shape, not about routing decisions (those are route-core's). */
final class Inputs {

    static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    static final int MAX_NAME = 200;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray();

    private Inputs() {}

    /** The id sent, checked, or a new one {@code <prefix>-<12 random>}. */
    static String idOrNew(String id, String prefix) {
        if (id == null) {
            StringBuilder out = new StringBuilder(prefix).append('-');
            for (int i = 0; i < 12; i++) {
                out.append(ID_ALPHABET[RANDOM.nextInt(ID_ALPHABET.length)]);
            }
            return out.toString();
        }
        if (!ID.matcher(id).matches()) {
            throw AdminException.invalid(
                    AdminCodes.ID, "id must match " + ID.pattern() + " (letters, digits, '.', '_', '-')");
        }
        return id;
    }

    static String name(String name) {
        if (name == null || name.isBlank()) {
            throw AdminException.invalid(AdminCodes.NAME, "name is required");
        }
        String trimmed = name.strip();
        if (trimmed.length() > MAX_NAME) {
            throw AdminException.invalid(AdminCodes.NAME, "name is longer than " + MAX_NAME + " characters");
        }
        return trimmed;
    }

    /** Distinct, non-blank ids in the order sent; null = empty. */
    static List<String> ids(List<String> ids, String code) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        if (ids != null) {
            for (String id : ids) {
                if (id == null || id.isBlank()) {
                    throw AdminException.invalid(code, "ids must not be blank");
                }
                out.add(id.strip());
            }
        }
        return List.copyOf(out);
    }

    static List<Protocol> protocols(List<String> names) {
        List<Protocol> out = new ArrayList<>();
        if (names != null) {
            for (String name : names) {
                try {
                    Protocol protocol = Protocol.fromWire(name);
                    if (!out.contains(protocol)) {
                        out.add(protocol);
                    }
                } catch (IllegalArgumentException e) {
                    throw AdminException.invalid(
                            AdminCodes.PROTOCOL,
                            "unknown protocol " + name + "; known: "
                                    + List.of(Protocol.values()).stream()
                                            .map(Protocol::wire)
                                            .toList());
                }
            }
        }
        return out;
    }

    /** Model names or patterns: distinct, stripped, non-blank. */
    static List<String> models(List<String> models) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        if (models != null) {
            for (String model : models) {
                if (model == null || model.isBlank()) {
                    throw AdminException.invalid(AdminCodes.MODELS, "model names must not be blank");
                }
                out.add(model.strip());
            }
        }
        return List.copyOf(out);
    }

    static WeightMode weightMode(String mode) {
        try {
            return WeightMode.fromWire(mode);
        } catch (RuntimeException e) {
            throw AdminException.invalid(AdminCodes.WEIGHT_MODE, "weight_mode must be auto or manual");
        }
    }

    /** An absolute http(s) URL with a host, without a trailing slash. */
    static String baseUrl(String url) {
        if (url == null || url.isBlank()) {
            throw AdminException.invalid(AdminCodes.BASE_URL, "base_url is required");
        }
        String trimmed = url.strip();
        try {
            URI uri = new URI(trimmed);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                throw AdminException.invalid(AdminCodes.BASE_URL, "base_url must be an absolute http(s) URL");
            }
            if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
                throw AdminException.invalid(
                        AdminCodes.BASE_URL, "base_url must not carry a query, fragment or user info");
            }
        } catch (URISyntaxException e) {
            throw AdminException.invalid(AdminCodes.BASE_URL, "base_url is not a valid URL");
        }
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed;
    }
}
