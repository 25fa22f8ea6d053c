package io.routegateway.core.identity;

import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The change an audit entry records: the fields of a resource's view that differ before and after a
 * write (a create records the whole new view, a delete the whole old one), every secret-bearing
 * field redacted, however deep. Views never carry a secret in the first place (credentials show
 * {@code has_secret}); the redaction is the second line, by field name.
 */
public final class AuditDiff {

    /** What a redacted value is replaced with. */
    public static final String REDACTED = "[redacted]";

    /** Field names (lower case) whose values are secrets. */
    private static final Set<String> SECRET_FIELDS = Set.of(
            "secret",
            "api_key",
            "key",
            "token",
            "access_token",
            "refresh_token",
            "id_token",
            "client_secret",
            "password",
            "authorization",
            "code_verifier",
            "secret_sealed",
            "token_hash",
            "key_hash");

    private AuditDiff() {}

    /** The change: before and after of the changed top-level fields; null for a side that does not exist. */
    public record Change(JsonNode before, JsonNode after) {}

    public static Change of(JsonNode before, JsonNode after) {
        JsonNode redactedBefore = redact(before);
        JsonNode redactedAfter = redact(after);
        if (redactedBefore == null
                || redactedAfter == null
                || !redactedBefore.isObject()
                || !redactedAfter.isObject()) {
            return new Change(redactedBefore, redactedAfter);
        }
        ObjectNode changedBefore = JsonNodeFactory.instance.objectNode();
        ObjectNode changedAfter = JsonNodeFactory.instance.objectNode();
        for (Iterator<String> names = redactedBefore.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            JsonNode was = redactedBefore.get(name);
            JsonNode is = redactedAfter.get(name);
            if (!was.equals(is)) {
                changedBefore.set(name, was);
                changedAfter.set(name, is == null ? JsonNodeFactory.instance.nullNode() : is);
            }
        }
        for (Iterator<String> names = redactedAfter.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!redactedBefore.has(name)) {
                changedBefore.set(name, JsonNodeFactory.instance.nullNode());
                changedAfter.set(name, redactedAfter.get(name));
            }
        }
        return new Change(changedBefore, changedAfter);
    }

    /** A copy with every secret field's value (not null) replaced by {@value #REDACTED}. */
    public static JsonNode redact(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        JsonNode copy = node.deepCopy();
        redactInPlace(copy);
        return copy;
    }

    private static void redactInPlace(JsonNode node) {
        if (node.isObject()) {
            ObjectNode object = (ObjectNode) node;
            for (Iterator<Map.Entry<String, JsonNode>> fields = object.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (SECRET_FIELDS.contains(field.getKey().toLowerCase(Locale.ROOT))
                        && !field.getValue().isNull()) {
                    field.setValue(JsonNodeFactory.instance.textNode(REDACTED));
                } else {
                    redactInPlace(field.getValue());
                }
            }
        } else if (node.isArray()) {
            node.forEach(AuditDiff::redactInPlace);
        }
    }
}
