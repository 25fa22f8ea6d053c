package io.routegateway.core.headers;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.routegateway.core.model.Protocol;

/**
 * Which client headers reach an upstream, and where the account-steering ones come from. A client
 * header passes only if the upstream's protocol reads it ({@link #allowed}); everything else
 * (authorization above all, cookies, proxies' forwarding headers, another vendor's headers) is
 * dropped. The steering headers ({@code OpenAI-Organization}, {@code OpenAI-Project}, {@code
 * OpenAI-Beta}, {@code anthropic-beta}) select which organisation, project or priced feature of the
 * shared account a request uses, so they come from the credential ({@link CredentialHeaders}); a
 * client's value counts only where the admin named the header in {@code client_may_set}: an id
 * replaces the configured one, a beta list is added to it. A client's 1M-context beta ({@code
 * context-1m-…}) is dropped unless the admin allowed {@link CredentialHeaders#CONTEXT_1M}: the long
 * context is opted into by the admin's {@code [1m]} mapping. Pure.
 */
public final class HeaderPolicy {

    /** Longest client header value forwarded; a longer one is dropped. */
    static final int MAX_VALUE = 1024;

    private static final Set<String> COMMON = Set.of("user-agent", "accept-language");
    private static final Set<String> OPENAI = Set.of(
            CredentialHeaders.OPENAI_ORGANIZATION, CredentialHeaders.OPENAI_PROJECT, CredentialHeaders.OPENAI_BETA);
    private static final Set<String> ANTHROPIC = Set.of("anthropic-version", CredentialHeaders.ANTHROPIC_BETA);

    private HeaderPolicy() {}

    /** Whether an upstream of {@code protocol} is sent a header of this (lower-case) name at all. */
    public static boolean allowed(Protocol protocol, String name) {
        if (COMMON.contains(name)) {
            return true;
        }
        return switch (protocol) {
            case OPENAI_CHAT, OPENAI_RESPONSES -> OPENAI.contains(name);
            case ANTHROPIC_MESSAGES -> ANTHROPIC.contains(name);
            default -> false;
        };
    }

    /**
     * The headers (lower-case names) an upstream of {@code protocol} gets from the client's {@code
     * headers} and the credential's {@code config}, in the client's order, the configured steering
     * headers after them.
     */
    public static List<Map.Entry<String, String>> forward(
            Protocol protocol, List<Map.Entry<String, String>> headers, CredentialHeaders config) {
        CredentialHeaders credential = config == null ? CredentialHeaders.NONE : config;
        List<Map.Entry<String, String>> out = new ArrayList<>(4);
        Map<String, String> steering = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, String> header : headers) {
            String name = header.getKey().toLowerCase(Locale.ROOT);
            String value = header.getValue();
            if (!allowed(protocol, name) || !isHeaderValue(value)) {
                continue;
            }
            if (!CredentialHeaders.STEERING.contains(name)) {
                out.add(Map.entry(name, value));
                continue;
            }
            if (!credential.clientMaySet(name)) {
                continue;
            }
            if (name.equals(CredentialHeaders.ANTHROPIC_BETA) || name.equals(CredentialHeaders.OPENAI_BETA)) {
                String kept = clientBetas(
                        value,
                        name.equals(CredentialHeaders.ANTHROPIC_BETA)
                                && !credential.clientMaySet(CredentialHeaders.CONTEXT_1M));
                if (kept != null) {
                    steering.merge(name, kept, (a, b) -> a + "," + b);
                }
            } else if (isId(value)) {
                steering.putIfAbsent(name, value);
            }
        }
        for (String name : List.of(
                CredentialHeaders.OPENAI_ORGANIZATION,
                CredentialHeaders.OPENAI_PROJECT,
                CredentialHeaders.OPENAI_BETA,
                CredentialHeaders.ANTHROPIC_BETA)) {
            if (!allowed(protocol, name)) {
                continue;
            }
            String configured = credential.configured(name);
            String client = steering.get(name);
            String value;
            if (name.endsWith("-beta")) {
                value = union(configured, client);
            } else {
                value = client != null ? client : configured;
            }
            if (value != null) {
                out.add(Map.entry(name, value));
            }
        }
        return out;
    }

    /** Whether a beta list names the 1M-context beta. */
    public static boolean hasOneMBeta(String betas) {
        for (String beta : betas.split(",")) {
            if (beta.strip().toLowerCase(Locale.ROOT).startsWith(CredentialHeaders.CONTEXT_1M)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code value} is a comma-separated list of beta names of at most {@code max} characters. */
    static boolean isBetaList(String value, int max) {
        if (value.isBlank() || value.length() > max) {
            return false;
        }
        for (String beta : value.split(",", -1)) {
            String name = beta.strip();
            if (name.isEmpty() || !name.chars().allMatch(HeaderPolicy::betaChar)) {
                return false;
            }
        }
        return true;
    }

    /** The client's betas without the 1M one when {@code dropOneM}; null when none is left or the list is malformed. */
    private static String clientBetas(String value, boolean dropOneM) {
        if (!isBetaList(value, MAX_VALUE)) {
            return null;
        }
        List<String> kept = new ArrayList<>();
        for (String beta : value.split(",")) {
            String name = beta.strip();
            if (!(dropOneM && hasOneMBeta(name))) {
                kept.add(name);
            }
        }
        return kept.isEmpty() ? null : String.join(",", kept);
    }

    private static String union(String configured, String client) {
        if (configured == null || client == null) {
            return configured == null ? client : configured;
        }
        Set<String> all = new LinkedHashSet<>();
        for (String beta : (configured + "," + client).split(",")) {
            all.add(beta.strip());
        }
        return String.join(",", all);
    }

    private static boolean isId(String value) {
        return !value.isEmpty()
                && value.length() <= CredentialHeaders.MAX_ID
                && value.chars()
                        .allMatch(c -> Character.isLetterOrDigit(c) && c < 128 || c == '-' || c == '_' || c == '.');
    }

    /** Printable ASCII (and tab), bounded: never a control character a client could split a header with. */
    private static boolean isHeaderValue(String value) {
        if (value == null || value.length() > MAX_VALUE) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c >= 0x7f) {
                return false;
            }
        }
        return true;
    }

    private static boolean betaChar(int c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '-'
                || c == '_'
                || c == '.'
                || c == '=';
    }
}
