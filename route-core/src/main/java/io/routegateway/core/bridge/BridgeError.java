package io.routegateway.core.bridge;

/**
 * An error in the canonical form: the HTTP status and the message, decoded from any protocol's
 * error envelope (an upstream's error) or made by the gateway (a refusal), and encoded into the
 * client protocol's envelope by its codec's {@link ProtocolCodec#encodeError}, the one writer of
 * that protocol's envelope: what type or status name a status gets is decided there, whoever
 * refused.
 *
 * @param gatewayCode the gateway's code of a refusal ({@code invalid_model}, {@code
 *     no_available_credential}…), kept in the envelope for operators to grep; null for an
 *     upstream's error, which carries none of the gateway's codes
 * @param gatewayType the gateway's error type of a refusal, used as such in the OpenAI envelopes;
 *     null for an upstream's error (the status decides it)
 */
public record BridgeError(int status, String message, String gatewayCode, String gatewayType) {

    /** An upstream's error (or a stream's failure) re-shaped for the client. */
    public static BridgeError of(int status, String message) {
        return new BridgeError(status, message, null, null);
    }

    /** A refusal of the gateway's own, with its code and error type. */
    public static BridgeError refusal(int status, String code, String message, String type) {
        return new BridgeError(status, message, code, type);
    }
}
