package io.routegateway.core.headers;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.policy.ValidationException;

/**
 * The account-steering headers a credential sends upstream, set by the admin (the credential's
 * {@code upstream_headers}): {@code {"openai_organization": "org-…", "openai_project": "proj_…",
 * "openai_beta": "assistants=v2", "anthropic_beta": "prompt-caching-2024-07-31", "client_may_set":
 * ["openai-beta"]}}, each optional. A client's own value of one of these headers reaches the upstream
 * only when the header is named in {@code client_may_set} ({@link HeaderPolicy}); the 1M-context
 * beta never comes from here (the admin's {@code [1m]} model mapping sends it) unless {@code
 * client_may_set} names {@value #CONTEXT_1M}, which lets a client's {@code context-1m-…} through.
 */
public record CredentialHeaders(
        String openaiOrganization,
        String openaiProject,
        String openaiBeta,
        String anthropicBeta,
        List<String> clientMaySet) {

    public static final String CODE = "validation.upstream_headers";
    public static final String UNKNOWN_FIELD = "validation.unknown_field";
    public static final CredentialHeaders NONE = new CredentialHeaders(null, null, null, null, List.of());

    public static final String OPENAI_ORGANIZATION = "openai-organization";
    public static final String OPENAI_PROJECT = "openai-project";
    public static final String OPENAI_BETA = "openai-beta";
    public static final String ANTHROPIC_BETA = "anthropic-beta";
    /** The entry of {@code client_may_set} that lets a client's 1M-context beta through. */
    public static final String CONTEXT_1M = "context-1m";

    /** The steering headers, by their header name. */
    public static final Set<String> STEERING = Set.of(OPENAI_ORGANIZATION, OPENAI_PROJECT, OPENAI_BETA, ANTHROPIC_BETA);

    /** Longest organization or project id. */
    static final int MAX_ID = 256;
    /** Longest beta list. */
    static final int MAX_BETA = 1024;

    private static final Set<String> FIELDS =
            Set.of("openai_organization", "openai_project", "openai_beta", "anthropic_beta", "client_may_set");

    public CredentialHeaders {
        openaiOrganization = id(openaiOrganization, "openai_organization");
        openaiProject = id(openaiProject, "openai_project");
        openaiBeta = betas(openaiBeta, "openai_beta");
        anthropicBeta = betas(anthropicBeta, "anthropic_beta");
        if (anthropicBeta != null && HeaderPolicy.hasOneMBeta(anthropicBeta)) {
            throw new ValidationException(
                    CODE,
                    "anthropic_beta must not name context-1m: the 1M context is opted into by a model mapping to `<model>[1m]`");
        }
        clientMaySet = clientMaySet == null ? List.of() : List.copyOf(clientMaySet);
        for (String name : clientMaySet) {
            if (!STEERING.contains(name) && !CONTEXT_1M.equals(name)) {
                throw new ValidationException(
                        CODE,
                        "client_may_set takes openai-organization, openai-project, openai-beta, anthropic-beta, context-1m");
            }
        }
    }

    @JsonIgnore
    public boolean isNone() {
        return openaiOrganization == null
                && openaiProject == null
                && openaiBeta == null
                && anthropicBeta == null
                && clientMaySet.isEmpty();
    }

    /** The admin's value of a steering header (by header name); null when none is set. */
    public String configured(String header) {
        return switch (header) {
            case OPENAI_ORGANIZATION -> openaiOrganization;
            case OPENAI_PROJECT -> openaiProject;
            case OPENAI_BETA -> openaiBeta;
            case ANTHROPIC_BETA -> anthropicBeta;
            default -> null;
        };
    }

    /** Whether the admin lets a client set {@code header} (lower case), or {@link #CONTEXT_1M}. */
    public boolean clientMaySet(String header) {
        return clientMaySet.contains(header);
    }

    /** Strict parse of an admin write; null or absent = {@link #NONE}. */
    public static CredentialHeaders parse(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return NONE;
        }
        if (!node.isObject()) {
            throw new ValidationException(CODE, "upstream_headers must be an object");
        }
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            String name = fields.next().getKey();
            if (!FIELDS.contains(name)) {
                throw new ValidationException(
                        UNKNOWN_FIELD,
                        "upstream_headers takes only "
                                + String.join(", ", FIELDS.stream().sorted().toList()));
            }
        }
        List<String> names = new ArrayList<>();
        JsonNode list = node.get("client_may_set");
        if (list != null && !list.isNull()) {
            if (!list.isArray() || list.size() > FIELDS.size()) {
                throw new ValidationException(CODE, "client_may_set must be a list of header names");
            }
            for (JsonNode item : list) {
                if (!item.isTextual()) {
                    throw new ValidationException(CODE, "client_may_set must be a list of header names");
                }
                String name = item.asText().toLowerCase(Locale.ROOT);
                if (!names.contains(name)) {
                    names.add(name);
                }
            }
        }
        return new CredentialHeaders(
                text(node.get("openai_organization"), "openai_organization"),
                text(node.get("openai_project"), "openai_project"),
                text(node.get("openai_beta"), "openai_beta"),
                text(node.get("anthropic_beta"), "anthropic_beta"),
                names);
    }

    private static String text(JsonNode value, String field) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new ValidationException(CODE, field + " must be a string or null");
        }
        return value.asText();
    }

    private static String id(String value, String field) {
        if (value == null) {
            return null;
        }
        if (value.isEmpty() || value.length() > MAX_ID || !value.chars().allMatch(CredentialHeaders::idChar)) {
            throw new ValidationException(CODE, field + " must be 1.." + MAX_ID + " letters, digits, '-', '_' or '.'");
        }
        return value;
    }

    private static String betas(String value, String field) {
        if (value == null) {
            return null;
        }
        if (!HeaderPolicy.isBetaList(value, MAX_BETA)) {
            throw new ValidationException(
                    CODE,
                    field
                            + " must be a comma-separated list of beta names (letters, digits, '-', '_', '.', '='), at most "
                            + MAX_BETA + " characters");
        }
        return value;
    }

    private static boolean idChar(int c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '-'
                || c == '_'
                || c == '.';
    }
}
