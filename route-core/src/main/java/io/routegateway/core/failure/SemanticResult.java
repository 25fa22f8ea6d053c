package io.routegateway.core.failure;

/** The verdict of {@link SemanticFailureDetector}: a 2xx body either is or is not structurally a failure. */
public sealed interface SemanticResult permits SemanticResult.NoFailure, SemanticResult.Failure {

    NoFailure NO_FAILURE = new NoFailure();

    default boolean isFailure() {
        return this instanceof Failure;
    }

    /** The body carries no failure structure; valid content is passed on as a success. */
    record NoFailure() implements SemanticResult {}

    /**
     * The body is a failure envelope.
     *
     * @param message the upstream's own error message (never null; falls back to the error JSON)
     * @param errorCode {@code error.code} as text (numbers included), or a top-level {@code code} when
     *     the envelope itself is the error; may be null
     * @param errorType {@code type} read only inside the {@code error} object, never the envelope's
     *     top-level {@code type}; may be null
     * @param rawSnippet the JSON document or SSE payload that carried the failure, at most {@link
     *     SemanticFailureDetector#SNIPPET_LIMIT} characters plus "…"
     */
    record Failure(String message, String errorCode, String errorType, String rawSnippet) implements SemanticResult {
        public Failure {
            if (message == null) {
                throw new IllegalArgumentException("message is required");
            }
        }
    }
}
