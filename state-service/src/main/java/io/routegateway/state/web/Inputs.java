package io.routegateway.state.web;

import java.net.URI;
import java.net.URISyntaxException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import io.routegateway.core.event.InboundScreen;
import io.routegateway.core.model.BridgePolicy;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.text.StorableText;

/**
 * Checks of admin input that are about its shape, not about routing decisions (those are
 * route-core's). Every field has a bound, checked before anything is stored, so that every accepted
 * write can be stored (no U+0000 or unpaired surrogate, see {@link StorableText}) and published (its
 * snapshot stays far below the producer's {@code max.request.size}; the worst case is worked out in
 * {@code docs/state-service.md}). Error messages never echo a long or multi-line value ({@link
 * StorableText#quote}).
 */
public final class Inputs {

    static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    /** Longest id: the {@link #ID} pattern allows 64 characters. */
    public static final int MAX_ID = 64;

    public static final int MAX_NAME = 200;
    /**
     * Longest model name, mapping {@code from}/{@code to}, model pattern or model key: what the
     * outcome consumer accepts as a model key ({@link InboundScreen#MAX_IDENTIFIER_CHARS}).
     */
    public static final int MAX_MODEL = InboundScreen.MAX_IDENTIFIER_CHARS;

    public static final int MAX_BASE_URL = 2048;
    /** Longest secret; it is sent as an HTTP header value, so printable ASCII without spaces. */
    public static final int MAX_SECRET = 8192;
    /** Model mappings of one credential. */
    public static final int MAX_MAPPINGS = 200;
    /** Entries of {@code allowed_models} (an AccessKey) or {@code exposed_models} (a group). */
    public static final int MAX_MODELS = 200;
    /** Entries of {@code group_ids} (of a credential or an AccessKey). */
    public static final int MAX_GROUP_IDS = 100;
    /** Entries of a group's {@code credential_ids}. */
    public static final int MAX_CREDENTIAL_IDS = 1000;
    /** Entries of {@code allowed_protocols}, duplicates included. */
    public static final int MAX_PROTOCOL_ENTRIES = 16;
    /** Longest query parameter value (filters, paging, cursors). */
    public static final int MAX_QUERY_VALUE = 256;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray();

    private Inputs() {}

    /** Whether {@code id} is a well-formed id (safe to name in a message). */
    public static boolean isId(String id) {
        return id != null && ID.matcher(id).matches();
    }

    /** The id sent, checked, or a new one {@code <prefix>-<12 random>}. */
    public static String idOrNew(String id, String prefix) {
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

    public static String name(String name) {
        if (name == null || name.isBlank()) {
            throw AdminException.invalid(AdminCodes.NAME, "name is required");
        }
        String trimmed = name.strip();
        if (trimmed.length() > MAX_NAME) {
            throw AdminException.invalid(AdminCodes.NAME, "name is longer than " + MAX_NAME + " characters");
        }
        if (!StorableText.isSingleLine(trimmed, MAX_NAME)) {
            throw AdminException.invalid(
                    AdminCodes.NAME, "name must not contain control characters, U+0000 or unpaired surrogates");
        }
        return trimmed;
    }

    /**
     * Distinct ids in the order sent, each matching {@link #ID} (nothing else can name a stored
     * row), at most {@code max} of them; null = empty.
     */
    public static List<String> ids(List<String> ids, String code, int max) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        if (ids != null) {
            if (ids.size() > max) {
                throw AdminException.invalid(code, "at most " + max + " ids");
            }
            for (String id : ids) {
                if (id == null || id.isBlank()) {
                    throw AdminException.invalid(code, "ids must not be blank");
                }
                String stripped = id.strip();
                if (!ID.matcher(stripped).matches()) {
                    throw AdminException.invalid(
                            code, "every id must match " + ID.pattern() + "; got " + echo(stripped));
                }
                out.add(stripped);
            }
        }
        return List.copyOf(out);
    }

    /** One referenced id (e.g. a remembered credential): null and blank are absent. */
    public static String refId(String id, String code) {
        if (id == null || id.isBlank()) {
            return null;
        }
        return ids(List.of(id), code, 1).get(0);
    }

    public static List<Protocol> protocols(List<String> names) {
        List<Protocol> out = new ArrayList<>();
        if (names != null) {
            if (names.size() > MAX_PROTOCOL_ENTRIES) {
                throw AdminException.invalid(AdminCodes.PROTOCOL, "at most " + MAX_PROTOCOL_ENTRIES + " protocols");
            }
            for (String name : names) {
                try {
                    Protocol protocol = Protocol.fromWire(name);
                    if (!out.contains(protocol)) {
                        out.add(protocol);
                    }
                } catch (IllegalArgumentException e) {
                    throw AdminException.invalid(
                            AdminCodes.PROTOCOL,
                            "unknown protocol " + echo(name) + "; known: "
                                    + List.of(Protocol.values()).stream()
                                            .map(Protocol::wire)
                                            .toList());
                }
            }
        }
        return out;
    }

    /** Model names or patterns: distinct, stripped, non-blank, single-line, bounded in length and number. */
    public static List<String> models(List<String> models) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        if (models != null) {
            if (models.size() > MAX_MODELS) {
                throw AdminException.invalid(AdminCodes.MODELS, "at most " + MAX_MODELS + " models");
            }
            for (String model : models) {
                out.add(modelName(model, AdminCodes.MODELS, "model names"));
            }
        }
        return List.copyOf(out);
    }

    /**
     * One model name (or key, or pattern), stripped: non-blank, at most {@link #MAX_MODEL}
     * characters, no control characters, U+0000 or unpaired surrogates.
     */
    public static String modelName(String model, String code, String what) {
        if (model == null || model.isBlank()) {
            throw AdminException.invalid(code, what + " must not be blank");
        }
        String stripped = model.strip();
        if (stripped.length() > MAX_MODEL) {
            throw AdminException.invalid(code, what + " must be at most " + MAX_MODEL + " characters");
        }
        if (!StorableText.isSingleLine(stripped, MAX_MODEL)) {
            throw AdminException.invalid(
                    code, what + " must not contain control characters, U+0000 or unpaired surrogates");
        }
        return stripped;
    }

    /**
     * The secret as it will be sealed: stripped, 1..{@link #MAX_SECRET} printable ASCII characters
     * without spaces (it travels as an HTTP header value: a line break would inject a header).
     */
    public static String secret(String secret, String whenBlank) {
        if (secret == null || secret.isBlank()) {
            throw AdminException.invalid(AdminCodes.SECRET, whenBlank);
        }
        String stripped = secret.strip();
        if (stripped.length() > MAX_SECRET) {
            throw AdminException.invalid(AdminCodes.SECRET, "secret must be at most " + MAX_SECRET + " characters");
        }
        for (int i = 0; i < stripped.length(); i++) {
            char c = stripped.charAt(i);
            if (c < '!' || c > '~') {
                throw AdminException.invalid(
                        AdminCodes.SECRET,
                        "secret must be printable ASCII without spaces (it is sent as an HTTP header); character " + i
                                + " is not");
            }
        }
        return stripped;
    }

    /** A value for an error message ({@link StorableText#quote}). */
    public static String echo(String value) {
        return StorableText.quote(value);
    }

    public static BridgePolicy bridging(String policy) {
        try {
            return BridgePolicy.fromWire(policy);
        } catch (RuntimeException e) {
            throw AdminException.invalid(AdminCodes.BRIDGING, "bridging must be native_first, any or native_only");
        }
    }

    public static WeightMode weightMode(String mode) {
        try {
            return WeightMode.fromWire(mode);
        } catch (RuntimeException e) {
            throw AdminException.invalid(AdminCodes.WEIGHT_MODE, "weight_mode must be auto or manual");
        }
    }

    /** An absolute http(s) URL with a host, at most {@link #MAX_BASE_URL} characters, without a trailing slash. */
    public static String baseUrl(String url) {
        if (url == null || url.isBlank()) {
            throw AdminException.invalid(AdminCodes.BASE_URL, "base_url is required");
        }
        String trimmed = url.strip();
        if (trimmed.length() > MAX_BASE_URL) {
            throw AdminException.invalid(
                    AdminCodes.BASE_URL, "base_url must be at most " + MAX_BASE_URL + " characters");
        }
        if (!StorableText.isSingleLine(trimmed, MAX_BASE_URL)) {
            throw AdminException.invalid(
                    AdminCodes.BASE_URL, "base_url must not contain control characters, U+0000 or unpaired surrogates");
        }
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
