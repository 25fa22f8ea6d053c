package io.routegateway.state.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * A refusal of the admin API with its HTTP status and stable code. Messages are written for
 * operators and never contain secrets or request bodies.
 */
public final class AdminException extends RuntimeException {

    private final int status;
    private final String code;

    public AdminException(int status, String code, String message) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
    }

    public static AdminException notFound(String what, String id) {
        return new AdminException(404, AdminCodes.NOT_FOUND, what + " " + id + " does not exist");
    }

    public static AdminException invalid(String code, String message) {
        return new AdminException(400, code, message);
    }

    public static AdminException conflict(String message) {
        return new AdminException(409, AdminCodes.CONFLICT, message);
    }

    /**
     * A body Jackson could not read: a field of the wrong type is {@code validation.field_type} with
     * the field's path, anything else {@code validation.malformed_json} with the position. Jackson's
     * own message is not used because it can quote the input.
     */
    public static AdminException fromJson(JsonProcessingException e) {
        if (e instanceof UnrecognizedPropertyException unknown) {
            String field = unknown.getPropertyName();
            String where = path(unknown);
            return invalid(
                    AdminCodes.UNKNOWN_FIELD,
                    JsonBody.isPlainName(field) && where.matches("[a-z0-9_.\\[\\]]{1,200}")
                            ? "unknown field " + where
                            : "an unknown field");
        }
        if (e instanceof MismatchedInputException mismatch
                && !mismatch.getPath().isEmpty()) {
            return invalid(AdminCodes.FIELD_TYPE, "wrong JSON type for " + path(mismatch));
        }
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            // e.g. a number out of the field's range
            return invalid(AdminCodes.FIELD_TYPE, "wrong JSON type or value out of range for " + path(mapping));
        }
        String where = e.getLocation() == null
                ? ""
                : " at line " + e.getLocation().getLineNr() + ", column "
                        + e.getLocation().getColumnNr();
        return invalid(AdminCodes.MALFORMED_JSON, "the body is not a valid JSON object" + where);
    }

    private static String path(JsonMappingException e) {
        StringBuilder out = new StringBuilder();
        for (JsonMappingException.Reference reference : e.getPath()) {
            if (reference.getFieldName() != null) {
                if (out.length() > 0) {
                    out.append('.');
                }
                out.append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                out.append('[').append(reference.getIndex()).append(']');
            }
        }
        return out.toString();
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }
}
