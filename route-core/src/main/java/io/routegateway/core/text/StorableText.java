package io.routegateway.core.text;

/**
 * What PostgreSQL {@code text} (UTF-8) can hold, and how text that arrives from outside is made to
 * fit. Two things never fit: U+0000 (PostgreSQL refuses it, SQLSTATE 22021/22P05) and an unpaired
 * UTF-16 surrogate (a JSON {@code "\ud800"} escape; it has no UTF-8 form, and the driver would
 * silently turn it into {@code ?}). Free text is repaired ({@link #sanitise}); an identifier that
 * does not fit is refused by the caller, because a repaired identifier would name something else.
 */
public final class StorableText {

    /** What {@link #sanitise} puts in place of every unstorable character. */
    public static final char REPLACEMENT = '\uFFFD';

    /** Appended by {@link #truncate} to a cut text. */
    public static final String ELLIPSIS = "…";

    private StorableText() {}

    /** Whether every character can be stored as it is (null counts as storable). */
    public static boolean isStorable(String text) {
        return firstUnstorable(text) < 0;
    }

    /** The index of the first U+0000 or unpaired surrogate, -1 when there is none. */
    public static int firstUnstorable(String text) {
        if (text == null) {
            return -1;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\u0000') {
                return i;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    return i;
                }
            } else if (Character.isLowSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Free text made storable: every U+0000 and every unpaired surrogate becomes {@link
     * #REPLACEMENT}; everything else, valid pairs included, is kept. Null stays null; text that is
     * already storable is returned as it is.
     */
    public static String sanitise(String text) {
        int first = firstUnstorable(text);
        if (first < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        out.append(text, 0, first);
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\u0000') {
                out.append(REPLACEMENT);
            } else if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    out.append(c).append(text.charAt(++i));
                } else {
                    out.append(REPLACEMENT);
                }
            } else if (Character.isLowSurrogate(c)) {
                out.append(REPLACEMENT);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * At most {@code max} characters, then {@link #ELLIPSIS}; a surrogate pair is never split.
     * Null stays null.
     */
    public static String truncate(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        int end = max;
        if (end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end) + ELLIPSIS;
    }

    /**
     * Whether the text holds a control character (C0 including tab and line breaks, DEL, C1) or a
     * line/paragraph separator: none of them belongs in a single-line value such as a name, an id,
     * a model name or a URL, where they would also forge log lines.
     */
    public static boolean hasControl(String text) {
        if (text == null) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                return true;
            }
        }
        return false;
    }

    /** Longest value {@link #quote} repeats. */
    public static final int QUOTE_CHARS = 64;

    /**
     * A value for an error message: quoted when it is short and single-line, otherwise only its
     * length, so an answer never repeats megabytes or control characters a client sent.
     */
    public static String quote(String value) {
        if (value == null) {
            return "null";
        }
        return isSingleLine(value, QUOTE_CHARS) ? "'" + value + "'" : "(a value of " + value.length() + " characters)";
    }

    /** Storable, without control characters, and at most {@code max} characters long. */
    public static boolean isSingleLine(String text, int max) {
        return text == null || (text.length() <= max && isStorable(text) && !hasControl(text));
    }
}
