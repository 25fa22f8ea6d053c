package io.routegateway.core.bridge;

import java.util.EnumMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.ProtocolRule;

/**
 * The protocol rule of one client request when bridges are allowed: a credential whose platform
 * speaks the client's protocol serves it natively; any other serves it through the bridge into its
 * platform's primary protocol if that conversion can express the request. The request is converted
 * at most once per upstream protocol, lazily (a request served natively is never converted), and
 * the conversion is kept for the upstream request. Not thread-safe: one per request.
 */
public final class BridgePlan implements ProtocolRule {

    private final Protocol client;
    private final JsonNode body;
    private final String pathModel;
    private final boolean stream;
    private final String model;
    private final boolean nativeOnly;
    private final Map<Protocol, RequestConversion> conversions = new EnumMap<>(Protocol.class);
    private final Map<Protocol, RuntimeException> failures = new EnumMap<>(Protocol.class);
    private String unsupported;

    private BridgePlan(
            Protocol client, JsonNode body, String pathModel, boolean stream, String model, boolean nativeOnly) {
        this.client = client;
        this.body = body;
        this.pathModel = pathModel;
        this.stream = stream;
        this.model = model;
        this.nativeOnly = nativeOnly;
    }

    /**
     * @param body the client's body; null when only the route is asked about (route check without a
     *     body): every bridge is then assumed to express the request
     * @param pathModel the model in the path (Gemini clients), else null
     * @param model the requested model, written into a converted body until the upstream request
     *     sets the mapped one
     * @param nativeOnly the request itself refuses conversion ({@code native_route_required})
     */
    public static BridgePlan of(
            Protocol client, JsonNode body, String pathModel, boolean stream, String model, boolean nativeOnly) {
        return new BridgePlan(client, body, pathModel, stream, model, nativeOnly);
    }

    @Override
    public Serving serving(CredentialSnapshot credential, Protocol protocol) {
        if (credential.platform() == null) {
            return Serving.NATIVE_REQUIRED;
        }
        if (credential.platform().servesNatively(protocol)) {
            return Serving.NATIVE;
        }
        if (nativeOnly) {
            return Serving.NATIVE_REQUIRED;
        }
        if (body == null) {
            return Serving.BRIDGED;
        }
        RequestConversion conversion;
        try {
            conversion = conversion(credential.platform().primaryProtocol());
        } catch (RuntimeException e) {
            // not the request's fault: the attempt fails as request_build when it builds the request
            return Serving.BRIDGED;
        }
        if (conversion instanceof RequestConversion.Converted) {
            return Serving.BRIDGED;
        }
        if (unsupported == null) {
            unsupported = conversion instanceof RequestConversion.Unsupported u
                    ? u.detail()
                    : "the request is not a valid " + client.wire() + " request: "
                            + ((RequestConversion.Invalid) conversion).detail();
        }
        return Serving.UNSUPPORTED;
    }

    @Override
    public String unsupportedDetail() {
        return unsupported;
    }

    /**
     * The client request converted for an {@code upstream} of another protocol (memoized).
     *
     * @throws RuntimeException the conversion itself broke (a fault of the bridge, not a shape it
     *     refuses): the attempt is a {@code request_build} failure
     */
    public RequestConversion conversion(Protocol upstream) {
        RuntimeException failed = failures.get(upstream);
        if (failed != null) {
            throw failed;
        }
        RequestConversion conversion = conversions.get(upstream);
        if (conversion == null) {
            try {
                conversion = Bridge.between(client, upstream).request(body, pathModel, stream, model);
            } catch (RuntimeException e) {
                failures.put(upstream, e);
                throw e;
            }
            conversions.put(upstream, conversion);
        }
        return conversion;
    }
}
