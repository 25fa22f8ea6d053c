package io.routegateway.core.model;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The upstream platform a credential belongs to. The baseline model set is the escalation
 * denominator for official accounts and accounts without mappings (4 codex, 4 claude, 1 gemini, 1
 * grok). Every platform also has a {@link #probeModel}, so a model test or healthcheck always has
 * something to ask for.
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
    /**
     * Plain OpenAI-compatible relays: api keys only. No baseline: a relay serves whatever it proxies,
     * so its models cannot be enumerated (no escalation denominator, nothing in {@code /models});
     * it is probed with a cheap chat model such relays commonly serve.
     */
    OPENAI("openai", List.of(), "gpt-5-mini", false, Set.of(Protocol.OPENAI_CHAT, Protocol.OPENAI_RESPONSES));

    private final String wire;
    private final List<String> baselineModels;
    private final String probeModel;
    private final boolean acceptsOfficial;

    private final Set<Protocol> nativeProtocols;

    /** A platform with a baseline: its first baseline model is the probe model. */
    Platform(String wire, List<String> baselineModels, boolean acceptsOfficial, Set<Protocol> nativeProtocols) {
        this(wire, baselineModels, baselineModels.get(0), acceptsOfficial, nativeProtocols);
    }

    Platform(
            String wire,
            List<String> baselineModels,
            String probeModel,
            boolean acceptsOfficial,
            Set<Protocol> nativeProtocols) {
        if (probeModel == null || probeModel.isBlank()) {
            // a platform without one would leave its accounts in error for good, silently
            throw new IllegalArgumentException("platform " + wire + " needs a probe model");
        }
        this.wire = wire;
        this.baselineModels = baselineModels;
        this.probeModel = probeModel;
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

    /**
     * The requested model a test or healthcheck asks for when the account's mappings name none
     * (official and mapping-less accounts, or only a catch-all): the first baseline model, or the
     * platform's own choice when it has no baseline. Never blank.
     */
    public String probeModel() {
        return probeModel;
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
