package io.routegateway.gateway.forward;

import java.util.function.BiConsumer;

import io.routegateway.common.upstream.UpstreamStream;
import io.routegateway.core.bridge.StreamTranslator;
import io.routegateway.core.secretmask.StreamMask;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;

/**
 * A bridged stream, translated frame by frame as the upstream's chunks arrive (the translator keeps
 * only the unfinished line and the open block), so the client's first token leaves with the
 * upstream's. A chunk the bridge cannot read ends the client's stream without its terminal event.
 */
final class TranslatedStream extends StreamAnswer {

    private final StreamTranslator translator;

    TranslatedStream(
            UpstreamStream stream,
            HttpServerResponse response,
            StreamMask secrets,
            StreamTranslator translator,
            BiConsumer<StreamAnswer, End> ended) {
        super(stream, response, secrets, ended);
        this.translator = translator;
    }

    @Override
    Buffer frames(Buffer chunk, byte[] bytes) {
        return wire(StreamTranslator.wire(translator.feed(bytes)));
    }

    @Override
    Buffer tail() {
        return wire(StreamTranslator.wire(translator.finish()));
    }

    private static Buffer wire(String text) {
        return text.isEmpty() ? null : Buffer.buffer(text);
    }
}
