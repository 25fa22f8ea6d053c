package io.routegateway.core.secretmask;

import java.nio.charset.StandardCharsets;

/**
 * Masks a secret in a byte stream cut into arbitrary chunks (a committed SSE stream): an occurrence
 * split across chunks is masked too. A chunk's last bytes are held back only while they could be
 * the start of an occurrence (rare: a stream's chunks end with a frame's blank line), and go out
 * with the next chunk or at {@link #finish}. What is not masked goes out byte for byte. Not thread-safe;
 * one per stream.
 */
public final class StreamMask {

    private static final byte[] EMPTY = {};

    private final SecretMatcher matcher;
    private byte[] pending = EMPTY;

    /** @param secret the credential's secret; nothing is masked when it is too short to search for */
    public StreamMask(String secret) {
        this.matcher = SecretMatcher.forBytes(secret);
    }

    /** What may go out for {@code chunk}: {@code chunk} itself when nothing was masked or held. */
    public byte[] push(byte[] chunk) {
        if (matcher == null) {
            return chunk;
        }
        byte[] text = pending.length == 0 ? chunk : concat(pending, chunk);
        SecretMatcher.Scan scan = matcher.scan(new Latin1(text), true);
        pending = scan.held() == text.length ? EMPTY : copy(text, scan.held(), text.length);
        if (scan.masked() != null) {
            return scan.masked().getBytes(StandardCharsets.ISO_8859_1);
        }
        return scan.held() == text.length && text == chunk ? chunk : copy(text, 0, scan.held());
    }

    /** The bytes still held back, masked: the stream has ended. */
    public byte[] finish() {
        byte[] rest = pending;
        pending = EMPTY;
        if (matcher == null || rest.length == 0) {
            return rest;
        }
        String masked = matcher.scan(new Latin1(rest), false).masked();
        return masked == null ? rest : masked.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private static byte[] copy(byte[] from, int start, int end) {
        byte[] part = new byte[end - start];
        System.arraycopy(from, start, part, 0, part.length);
        return part;
    }

    /** Bytes read as ISO-8859-1 characters, without a copy. */
    static final class Latin1 implements CharSequence {
        private final byte[] bytes;
        private final int from;
        private final int to;

        Latin1(byte[] bytes) {
            this(bytes, 0, bytes.length);
        }

        private Latin1(byte[] bytes, int from, int to) {
            this.bytes = bytes;
            this.from = from;
            this.to = to;
        }

        @Override
        public int length() {
            return to - from;
        }

        @Override
        public char charAt(int index) {
            return (char) (bytes[from + index] & 0xFF);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new Latin1(bytes, from + start, from + end);
        }

        @Override
        public String toString() {
            return new String(bytes, from, to - from, StandardCharsets.ISO_8859_1);
        }
    }
}
