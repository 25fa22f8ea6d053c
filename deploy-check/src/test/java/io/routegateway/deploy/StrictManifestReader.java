package io.routegateway.deploy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBuilder;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * Reads rendered manifests into their fabric8 model classes, strictly.
 *
 * <p>fabric8 on its own is lenient: an unknown field such as {@code imagePullPolcy} lands in
 * {@code additionalProperties} and a wrong type is kept as an unmatched field. Here fabric8 only tells which class
 * belongs to {@code apiVersion}/{@code kind}; the document is then bound by a Jackson mapper that has the
 * any-setters removed, fails on unknown properties and refuses scalar coercion ({@code "8080"} for an integer,
 * {@code 30} for a string), which is what the API server refuses too.
 */
final class StrictManifestReader {

    private static final Pattern DOCUMENT_SEPARATOR = Pattern.compile("(?m)^---[ \\t]*$");
    private static final Pattern SOURCE_COMMENT = Pattern.compile("(?m)^# Source: (.+)$");

    private static final KubernetesSerialization FABRIC8 = new KubernetesSerialization();

    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .build();

    private static final ObjectMapper STRICT = strictMapper();

    /** One document of a multi-document YAML stream. */
    record Manifest(int index, String source, JsonNode raw, HasMetadata resource) {

        String describe() {
            return resource.getKind() + "/" + resource.getMetadata().getName();
        }
    }

    /** A document that is not a valid Kubernetes object of a known kind. */
    static final class InvalidManifestException extends RuntimeException {
        InvalidManifestException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private StrictManifestReader() {}

    static List<Manifest> read(String multiDocumentYaml) {
        List<Manifest> manifests = new ArrayList<>();
        int index = 0;
        for (String document : DOCUMENT_SEPARATOR.split(multiDocumentYaml)) {
            Matcher source = SOURCE_COMMENT.matcher(document);
            String where = source.find() ? source.group(1).trim() : "document " + index;
            JsonNode raw;
            try {
                raw = YAML.readTree(document);
            } catch (IOException e) {
                throw new InvalidManifestException(where + ": not valid YAML: " + e.getMessage(), e);
            }
            if (raw == null || raw.isMissingNode() || raw.isNull() || raw.isEmpty()) {
                continue;
            }
            manifests.add(new Manifest(index++, where, raw, bind(where, raw)));
        }
        return manifests;
    }

    private static HasMetadata bind(String where, JsonNode raw) {
        String apiVersion = raw.path("apiVersion").asText("");
        String kind = raw.path("kind").asText("");
        if (apiVersion.isEmpty() || kind.isEmpty()) {
            throw new InvalidManifestException(where + ": apiVersion and kind are required", null);
        }
        Class<? extends KubernetesResource> type = FABRIC8.getRegisteredKubernetesResource(apiVersion, kind);
        if (type == null || type == GenericKubernetesResource.class || !HasMetadata.class.isAssignableFrom(type)) {
            throw new InvalidManifestException(
                    where + ": no model class for " + apiVersion + " " + kind + " (unknown or misspelt kind)", null);
        }
        try {
            return (HasMetadata) STRICT.treeToValue(raw, type);
        } catch (JsonProcessingException e) {
            throw new InvalidManifestException(
                    where + ": " + kind + " "
                            + raw.path("metadata").path("name").asText("?") + " is invalid: " + e.getOriginalMessage()
                            + " at " + path(e),
                    e);
        }
    }

    /** The JSON path of a binding error, e.g. {@code spec.template.spec.containers[0].imagePullPolcy}. */
    private static String path(JsonProcessingException e) {
        if (!(e instanceof JsonMappingException mapping)) {
            return "?";
        }
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference reference : mapping.getPath()) {
            if (reference.getFieldName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static ObjectMapper strictMapper() {
        SimpleModule strictBeans = new SimpleModule("strict-beans");
        strictBeans.setDeserializerModifier(new BeanDeserializerModifier() {
            @Override
            public BeanDeserializerBuilder updateBuilder(
                    DeserializationConfig config, BeanDescription description, BeanDeserializerBuilder builder) {
                // fabric8 classes collect unknown fields through @JsonAnySetter; without it they are errors.
                builder.setAnySetter(null);
                builder.setIgnoreUnknownProperties(false);
                return builder;
            }
        });
        JsonMapper mapper = JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .addModule(strictBeans)
                .build();
        // Kubernetes accepts no scalar coercion: a quoted number is not an integer, a number is not a string.
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Integer)
                .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Float)
                .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Boolean)
                .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
        return mapper;
    }
}
