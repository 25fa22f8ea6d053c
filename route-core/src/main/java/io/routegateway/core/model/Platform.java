package io.routegateway.core.model;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The upstream platform a credential belongs to. The baseline model set is the escalation
 * denominator for official accounts and accounts without mappings (4 codex, 4 claude, 1 gemini, 1
 * grok).
 */
public enum Platform {
    CLAUDE(
            "claude",
            List.of("claude-opus-4-5", "claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-1"),
            true,
            Set.of(Protocol.ANTHROPIC_MESSAGES)),
    CODEX(
            "codex",
            List.of("gpt-5.1-codex", "gpt-5.1-codex-mini", "gpt-5.1", "gpt-5"),
            true,
            Set.of(Protocol.OPENAI_RESPONSES, Protocol.OPENAI_CHAT)),
    GEMINI("gemini", List.of("gemini-2.5-pro"), true, Set.of(Protocol.GEMINI)),
    GROK("grok", List.of("grok-4"), true, Set.of(Protocol.OPENAI_CHAT, Protocol.OPENAI_RESPONSES)),
    /** Plain OpenAI-compatible relays: api keys only. */
    OPENAI("openai", List.of(), false, Set.of(Protocol.OPENAI_CHAT, Protocol.OPENAI_RESPONSES));

    private final String wire;
    private final List<String> baselineModels;
    private final boolean acceptsOfficial;

    private final Set<Protocol> nativeProtocols;

    Platform(String wire, List<String> baselineModels, boolean acceptsOfficial, Set<Protocol> nativeProtocols) {
        this.wire = wire;
        this.baselineModels = baselineModels;
        this.acceptsOfficial = acceptsOfficial;
        this.nativeProtocols = nativeProtocols;
    }

    /**
     * Client protocols this platform's upstream speaks natively; any other protocol reaches it
     * through a protocol bridge into {@link #primaryProtocol}.
     */
    public boolean servesNatively(Protocol protocol) {
        return nativeProtocols.contains(protocol);
    }

    /**
     * The protocol a bridged request is sent in: the platform's own API (Claude: Messages, Codex:
     * Responses, Gemini: generateContent, Grok and OpenAI-compatible relays: Chat Completions).
     */
    public Protocol primaryProtocol() {
        return switch (this) {
            case CLAUDE -> Protocol.ANTHROPIC_MESSAGES;
            case CODEX -> Protocol.OPENAI_RESPONSES;
            case GEMINI -> Protocol.GEMINI;
            case GROK, OPENAI -> Protocol.OPENAI_CHAT;
        };
    }

    /** The protocol a request of {@code client} is sent upstream in: its own when native, else {@link #primaryProtocol}. */
    public Protocol upstreamProtocol(Protocol client) {
        return servesNatively(client) ? client : primaryProtocol();
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    /** The platform's baseline model set; empty when the platform defines none. */
    public List<String> baselineModels() {
        return baselineModels;
    }

    /** The platform capability rule: some platforms only accept api credentials. */
    public boolean accepts(CredentialKind kind) {
        return kind == CredentialKind.API || acceptsOfficial;
    }

    @JsonCreator
    public static Platform fromWire(String value) {
        if (value != null) {
            String normalized = value.strip().toLowerCase(Locale.ROOT);
            for (Platform platform : values()) {
                if (platform.wire.equals(normalized)) {
                    return platform;
                }
            }
        }
        throw new IllegalArgumentException("unknown platform: " + value);
    }
}
