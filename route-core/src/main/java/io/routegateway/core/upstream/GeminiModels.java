package io.routegateway.core.upstream;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * The model segment of a Gemini path ({@code /v1beta/models/{model}:generateContent}). The segment
 * becomes part of the upstream URL, which carries the pool's key, so it is held to the character
 * set of real model ids: a letter or digit first, then letters, digits, {@code .}, {@code _} and
 * {@code -}, at most {@value #MAX_LENGTH} characters. That keeps out everything that would change
 * the URL's meaning ({@code /}, {@code ..%2F}, {@code ?}, {@code #}, {@code %}, spaces, controls).
 * The upstream URL is encoded besides ({@link #pathSegment}), so a mapped name an administrator
 * chose cannot change the path either.
 */
public final class GeminiModels {

    public static final int MAX_LENGTH = 128;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    private GeminiModels() {}

    /**
     * Why {@code model} (the segment as decoded) cannot name a Gemini model, null when it can. The
     * reason never repeats the name: it may be huge or hostile.
     */
    public static String problem(String model) {
        if (model == null) {
            return "the Gemini model segment of the path is not valid percent-encoding";
        }
        if (model.isEmpty()) {
            return "the Gemini path names no model";
        }
        if (model.length() > MAX_LENGTH) {
            return "the Gemini model name is " + model.length() + " characters long, over the limit of " + MAX_LENGTH;
        }
        if (!NAME.matcher(model).matches()) {
            return "the Gemini model name may contain only letters, digits, '.', '_' and '-', starting with a"
                    + " letter or digit";
        }
        return null;
    }

    /**
     * The model named by a raw path segment, percent-decoded, or null when the segment is not valid
     * percent-encoding ({@link #problem}(null) then explains).
     */
    public static String decodePathSegment(String rawSegment) {
        if (rawSegment == null) {
            return null;
        }
        try {
            return URLDecoder.decode(rawSegment, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return null;
        }
    }

    /** {@code model} percent-encoded as one URL path segment: only RFC 3986 unreserved characters stay. */
    public static String pathSegment(String model) {
        if (model == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(model.length());
        for (byte b : model.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'A' && c <= 'Z')
                    || (c >= 'a' && c <= 'z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '.'
                    || c == '_'
                    || c == '~') {
                out.append((char) c);
            } else {
                out.append('%')
                        .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }
}
