package io.routegateway.core.secretmask;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Finds a secret in text in every encoding an upstream may quote it in, and masks it. A secret is
 * searched for as itself and, as whole forms, as the base64 and base64url of its bytes (with or
 * without padding, at each of the three byte alignments it can have inside a longer base64 string:
 * the characters that carry only the secret's bits) and as its hex. Each character of a form may
 * appear literally or escaped:
 *
 * <ul>
 *   <li>JSON / JavaScript: <code>&#92;uXXXX</code> (either hex case), {@code \/}, {@code \"}, {@code \\},
 *       the short control escapes, {@code \xHH}; the backslash itself repeated (a JSON document
 *       quoted inside another: {@code \\\/}, <code>&#92;&#92;u0073</code>), up to {@value #MAX_BACKSLASH_RUN};
 *   <li>URL encoding: {@code %HH} of each UTF-8 byte, upper or lower hex, and {@code %25HH}
 *       (encoded twice);
 *   <li>HTML numeric references: {@code &#115;}, {@code &#x73;}.
 * </ul>
 *
 * Escaped and literal characters mix freely within one occurrence. Pure and immutable; one
 * instance per secret.
 *
 * <p>Two views of the text: {@link #of} reads it as characters (a decoded string); {@link
 * #forBytes} reads raw bytes as ISO-8859-1 characters, one per byte, so a body or a stream chunk is
 * scanned and masked without decoding (what is not masked stays byte for byte as it came). In the
 * byte view a non-ASCII secret is searched for as its UTF-8 bytes (literal, URL-encoded, base64,
 * hex); its <code>&#92;uXXXX</code> form is found in the character view only.
 */
public final class SecretMatcher {

    public static final String MASK = "[redacted]";
    /** Shorter secrets, and shorter encoded forms, are not searched for: they would mask ordinary words. */
    public static final int MIN_SECRET_LENGTH = 8;
    /** The most backslashes read in front of one escape (an escape nested four levels deep). */
    static final int MAX_BACKSLASH_RUN = 16;

    private static final int NO = -1;
    /** The text ended inside a possible occurrence. */
    private static final int PARTIAL = -2;

    private final char[][] forms;
    /** Characters below 256 that can begin an occurrence (higher ones are always tried). */
    private final boolean[] starts = new boolean[256];

    private final boolean bytes;

    private SecretMatcher(Set<String> forms, boolean bytes) {
        this.bytes = bytes;
        this.forms = new char[forms.size()][];
        int i = 0;
        for (String form : forms) {
            this.forms[i++] = form.toCharArray();
            char first = form.charAt(0);
            if (first < 256) {
                starts[first] = true;
            }
        }
        starts['\\'] = true;
        starts['%'] = true;
        starts['&'] = true;
    }

    /** The matcher of {@code secret} over decoded text; null when the secret is too short to search for. */
    public static SecretMatcher of(String secret) {
        if (secret == null || secret.length() < MIN_SECRET_LENGTH) {
            return null;
        }
        return new SecretMatcher(forms(secret, secret), false);
    }

    /** The matcher of {@code secret} over raw bytes read as ISO-8859-1; null when too short to search for. */
    public static SecretMatcher forBytes(String secret) {
        if (secret == null || secret.length() < MIN_SECRET_LENGTH) {
            return null;
        }
        return new SecretMatcher(
                forms(secret, new String(secret.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1)), true);
    }

    private static Set<String> forms(String secret, String literal) {
        Set<String> forms = new LinkedHashSet<>();
        forms.add(literal);
        byte[] raw = secret.getBytes(StandardCharsets.UTF_8);
        for (int offset = 0; offset < 3; offset++) {
            byte[] aligned = new byte[offset + raw.length];
            System.arraycopy(raw, 0, aligned, offset, raw.length);
            String encoded = Base64.getEncoder().withoutPadding().encodeToString(aligned);
            // only the characters whose six bits all come from the secret
            int from = (8 * offset + 5) / 6;
            int to = 8 * (offset + raw.length) / 6;
            if (to - from >= MIN_SECRET_LENGTH) {
                String core = encoded.substring(from, to);
                forms.add(core);
                forms.add(core.replace('+', '-').replace('/', '_'));
            }
        }
        String hex = HexFormat.of().formatHex(raw);
        forms.add(hex);
        forms.add(hex.toUpperCase(java.util.Locale.ROOT));
        return forms;
    }

    /** {@code text} with every occurrence masked; {@code text} itself when there is none. */
    public String mask(String text) {
        if (text == null) {
            return null;
        }
        Scan scan = scan(text, false);
        return scan.masked == null ? text : scan.masked;
    }

    /**
     * {@code body} (raw bytes; a matcher {@link #forBytes}) with every occurrence masked; {@code body}
     * itself when there is none.
     */
    public byte[] mask(byte[] body) {
        if (body == null) {
            return null;
        }
        Scan scan = scan(new StreamMask.Latin1(body), false);
        return scan.masked == null ? body : scan.masked.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Whether {@code text} holds an occurrence in any encoding. */
    public boolean occursIn(CharSequence text) {
        return text != null && scan(text, false).masked != null;
    }

    /**
     * One pass over {@code text}.
     *
     * @param more more text follows (a stream): an occurrence that may continue past the end is held
     *     back, from its first character
     */
    Scan scan(CharSequence text, boolean more) {
        StringBuilder out = null;
        int copied = 0;
        int n = text.length();
        int i = 0;
        int held = n;
        while (i < n) {
            char c = text.charAt(i);
            if (c < 256 && !starts[c]) {
                i++;
                continue;
            }
            int end = NO;
            boolean partial = false;
            for (char[] form : forms) {
                int e = match(text, i, form, 0);
                if (e > end) {
                    end = e;
                } else if (e == PARTIAL) {
                    partial = true;
                }
            }
            if (end >= 0) {
                if (out == null) {
                    out = new StringBuilder(n);
                }
                out.append(text, copied, i).append(MASK);
                copied = end;
                i = end;
                continue;
            }
            if (partial && more) {
                held = i;
                break;
            }
            i++;
        }
        if (out == null) {
            return new Scan(null, held);
        }
        out.append(text, copied, held);
        return new Scan(out.toString(), held);
    }

    /**
     * @param masked the text up to {@code held} with the occurrences masked; null when nothing was masked
     * @param held where the text still undecided begins ({@code text.length()} when nothing is held)
     */
    record Scan(String masked, int held) {}

    /** Where {@code form} from its {@code k}th character, read at {@code i}, ends; {@link #NO} or {@link #PARTIAL}. */
    private int match(CharSequence t, int i, char[] form, int k) {
        if (k == form.length) {
            return i;
        }
        if (i >= t.length()) {
            return PARTIAL;
        }
        char c = form[k];
        char x = t.charAt(i);
        boolean partial = false;
        if (x == c) {
            int r = match(t, i + 1, form, k + 1);
            if (r >= 0) {
                return r;
            }
            partial = r == PARTIAL;
        }
        int[] ends;
        if (x == '\\') {
            ends = escaped(t, i, c);
        } else if (x == '%') {
            ends = percent(t, i, c);
        } else if (x == '&') {
            ends = reference(t, i, c);
        } else {
            return partial ? PARTIAL : NO;
        }
        for (int e : ends) {
            if (e == PARTIAL) {
                partial = true;
            } else if (e >= 0) {
                int r = match(t, e, form, k + 1);
                if (r >= 0) {
                    return r;
                }
                partial |= r == PARTIAL;
            }
        }
        return partial ? PARTIAL : NO;
    }

    private static final int[] NONE = {};
    private static final int[] ONLY_PARTIAL = {PARTIAL};

    /** The ends of a backslash escape of {@code c} at {@code i} (a run of backslashes, then the escape). */
    private static int[] escaped(CharSequence t, int i, char c) {
        int n = t.length();
        int j = i;
        while (j < n && t.charAt(j) == '\\' && j - i < MAX_BACKSLASH_RUN) {
            j++;
        }
        if (c == '\\') {
            // a backslash escaped: \\ (or nested, \\\\); the literal one is tried by the caller
            return j == n ? new int[] {j, PARTIAL} : new int[] {j};
        }
        if (j == n) {
            return ONLY_PARTIAL;
        }
        char y = t.charAt(j);
        if (y == 'u' || y == 'U') {
            return new int[] {hex(t, j + 1, 4, c)};
        }
        if (y == 'x') {
            return new int[] {hex(t, j + 1, 2, c)};
        }
        if (y == c && (c == '/' || c == '"' || c == '\'')) {
            return new int[] {j + 1};
        }
        char control = switch (y) {
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            default -> 0;
        };
        return control != 0 && control == c ? new int[] {j + 1} : NONE;
    }

    /** The end of {@code digits} hex digits at {@code i} whose value is {@code c}. */
    private static int hex(CharSequence t, int i, int digits, char c) {
        int value = 0;
        for (int d = 0; d < digits; d++) {
            if (i + d >= t.length()) {
                return PARTIAL;
            }
            int v = Character.digit(t.charAt(i + d), 16);
            if (v < 0) {
                return NO;
            }
            value = value * 16 + v;
        }
        return value == c ? i + digits : NO;
    }

    /** The end of {@code c} URL-encoded at {@code i}: each of its UTF-8 bytes as %HH or %25HH. */
    private int[] percent(CharSequence t, int i, char c) {
        byte[] encoded;
        if (bytes || c < 0x80) {
            encoded = new byte[] {(byte) c};
        } else if (Character.isSurrogate(c)) {
            return NONE;
        } else {
            encoded = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        }
        int p = i;
        for (byte b : encoded) {
            p = percentByte(t, p, b & 0xFF);
            if (p < 0) {
                return new int[] {p};
            }
        }
        return new int[] {p};
    }

    private static int percentByte(CharSequence t, int p, int b) {
        int n = t.length();
        if (p >= n) {
            return PARTIAL;
        }
        if (t.charAt(p) != '%') {
            return NO;
        }
        int once = hex(t, p + 1, 2, (char) b);
        if (once != NO) {
            return once;
        }
        // %25 is '%' itself: encoded twice
        if (hex(t, p + 1, 2, '%') == p + 3) {
            int twice = hex(t, p + 3, 2, (char) b);
            return twice;
        }
        return NO;
    }

    /** The end of an HTML numeric character reference of {@code c} at {@code i}. */
    private static int[] reference(CharSequence t, int i, char c) {
        int n = t.length();
        int p = i + 1;
        if (p >= n) {
            return ONLY_PARTIAL;
        }
        if (t.charAt(p) != '#') {
            return NONE;
        }
        p++;
        int radix = 10;
        if (p < n && (t.charAt(p) == 'x' || t.charAt(p) == 'X')) {
            radix = 16;
            p++;
        }
        int value = 0;
        int digits = 0;
        while (p < n && digits < 8) {
            int v = Character.digit(t.charAt(p), radix);
            if (v < 0) {
                break;
            }
            value = value * radix + v;
            digits++;
            p++;
        }
        if (p >= n) {
            return ONLY_PARTIAL;
        }
        if (digits == 0 || t.charAt(p) != ';' || value != c) {
            return NONE;
        }
        return new int[] {p + 1};
    }
}
