package io.routegateway.e2e.support;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;

/**
 * An OTLP/HTTP trace receiver standing in for the collector an operator runs: gateway-service and
 * state-service export to it ({@code http/protobuf}), and it keeps every span it is sent. The
 * payload ({@code ExportTraceServiceRequest}) is read field by field with protobuf's wire reader,
 * so the test sees exactly what a collector would, attributes, events and status included.
 */
public final class TraceCollector {

    /** One exported span: ids as lowercase hex, the exporting service's {@code service.name}. */
    public record CollectedSpan(
            String service,
            String traceId,
            String spanId,
            String parentSpanId,
            String name,
            int kind,
            Map<String, Object> attributes,
            List<String> eventTexts,
            String statusMessage) {

        public static final int SERVER = 2;
        public static final int CLIENT = 3;
        public static final int PRODUCER = 4;
        public static final int CONSUMER = 5;

        public Object attribute(String key) {
            return attributes.get(key);
        }

        /** Every string the span carries: name, attribute values, event texts, status message. */
        public List<String> texts() {
            List<String> texts = new ArrayList<>();
            texts.add(name);
            attributes.values().forEach(value -> texts.add(String.valueOf(value)));
            texts.addAll(eventTexts);
            if (statusMessage != null) {
                texts.add(statusMessage);
            }
            return texts;
        }
    }

    private final List<CollectedSpan> spans = new CopyOnWriteArrayList<>();
    private final HttpServer server;
    private final int port;

    private TraceCollector(Vertx vertx) throws Exception {
        server = vertx.createHttpServer()
                .requestHandler(request -> request.body().onComplete(body -> {
                    if (body.failed()) {
                        request.response().setStatusCode(400).end();
                        return;
                    }
                    try {
                        decodeRequest(body.result(), "gzip".equalsIgnoreCase(request.getHeader("content-encoding")));
                        request.response()
                                .putHeader("content-type", "application/x-protobuf")
                                .end(Buffer.buffer());
                    } catch (IOException | RuntimeException e) {
                        request.response().setStatusCode(400).end();
                    }
                }));
        port = server.listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS)
                .actualPort();
    }

    public static TraceCollector start(Vertx vertx) {
        try {
            return new TraceCollector(vertx);
        } catch (Exception e) {
            throw new IllegalStateException("the trace collector did not start: " + e, e);
        }
    }

    /** Where the services send traces (OTLP/HTTP). */
    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    /** Every span received so far of one trace. */
    public List<CollectedSpan> trace(String traceId) {
        return spans.stream().filter(span -> span.traceId().equals(traceId)).toList();
    }

    public void close() throws Exception {
        server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    // ---- ExportTraceServiceRequest, read by field number (opentelemetry-proto trace/v1) ----------

    private void decodeRequest(Buffer body, boolean gzip) throws IOException {
        byte[] bytes = body.getBytes();
        if (gzip) {
            try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
                bytes = in.readAllBytes();
            }
        }
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            if (WireFormat.getTagFieldNumber(tag) == 1) { // resource_spans
                decodeResourceSpans(CodedInputStream.newInstance(in.readByteArray()));
            } else {
                in.skipField(tag);
            }
        }
    }

    private void decodeResourceSpans(CodedInputStream in) throws IOException {
        String service = null;
        List<byte[]> scopeSpans = new ArrayList<>();
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> { // resource
                    Map<String, Object> resource = new LinkedHashMap<>();
                    CodedInputStream r = CodedInputStream.newInstance(in.readByteArray());
                    for (int t = r.readTag(); t != 0; t = r.readTag()) {
                        if (WireFormat.getTagFieldNumber(t) == 1) {
                            readKeyValue(r.readByteArray(), resource);
                        } else {
                            r.skipField(t);
                        }
                    }
                    service = String.valueOf(resource.get("service.name"));
                }
                case 2 -> scopeSpans.add(in.readByteArray());
                default -> in.skipField(tag);
            }
        }
        for (byte[] scope : scopeSpans) {
            CodedInputStream s = CodedInputStream.newInstance(scope);
            for (int tag = s.readTag(); tag != 0; tag = s.readTag()) {
                if (WireFormat.getTagFieldNumber(tag) == 2) { // spans
                    spans.add(decodeSpan(service, s.readByteArray()));
                } else {
                    s.skipField(tag);
                }
            }
        }
    }

    private static CollectedSpan decodeSpan(String service, byte[] bytes) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        String traceId = "";
        String spanId = "";
        String parentSpanId = "";
        String name = "";
        int kind = 0;
        Map<String, Object> attributes = new LinkedHashMap<>();
        List<String> eventTexts = new ArrayList<>();
        String statusMessage = null;
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> traceId = HexFormat.of().formatHex(in.readByteArray());
                case 2 -> spanId = HexFormat.of().formatHex(in.readByteArray());
                case 4 -> parentSpanId = HexFormat.of().formatHex(in.readByteArray());
                case 5 -> name = in.readString();
                case 6 -> kind = in.readEnum();
                case 9 -> readKeyValue(in.readByteArray(), attributes);
                case 11 -> { // events: name (2) and attributes (3)
                    CodedInputStream event = CodedInputStream.newInstance(in.readByteArray());
                    Map<String, Object> eventAttributes = new LinkedHashMap<>();
                    for (int t = event.readTag(); t != 0; t = event.readTag()) {
                        switch (WireFormat.getTagFieldNumber(t)) {
                            case 2 -> eventTexts.add(event.readString());
                            case 3 -> readKeyValue(event.readByteArray(), eventAttributes);
                            default -> event.skipField(t);
                        }
                    }
                    eventAttributes.values().forEach(value -> eventTexts.add(String.valueOf(value)));
                }
                case 15 -> { // status: message (2)
                    CodedInputStream status = CodedInputStream.newInstance(in.readByteArray());
                    for (int t = status.readTag(); t != 0; t = status.readTag()) {
                        if (WireFormat.getTagFieldNumber(t) == 2) {
                            statusMessage = status.readString();
                        } else {
                            status.skipField(t);
                        }
                    }
                }
                default -> in.skipField(tag);
            }
        }
        return new CollectedSpan(
                service, traceId, spanId, parentSpanId, name, kind, attributes, eventTexts, statusMessage);
    }

    /** A KeyValue: key (1), AnyValue (2) of which string, bool, int, double and arrays are kept. */
    private static void readKeyValue(byte[] bytes, Map<String, Object> into) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        String key = null;
        Object value = null;
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> key = in.readString();
                case 2 -> value = readAnyValue(in.readByteArray());
                default -> in.skipField(tag);
            }
        }
        if (key != null) {
            into.put(key, value);
        }
    }

    private static Object readAnyValue(byte[] bytes) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        Object value = null;
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> value = in.readString();
                case 2 -> value = in.readBool();
                case 3 -> value = in.readInt64();
                case 4 -> value = in.readDouble();
                case 5 -> { // ArrayValue: repeated AnyValue values = 1
                    List<Object> values = new ArrayList<>();
                    CodedInputStream array = CodedInputStream.newInstance(in.readByteArray());
                    for (int t = array.readTag(); t != 0; t = array.readTag()) {
                        if (WireFormat.getTagFieldNumber(t) == 1) {
                            values.add(readAnyValue(array.readByteArray()));
                        } else {
                            array.skipField(t);
                        }
                    }
                    value = values;
                }
                default -> in.skipField(tag);
            }
        }
        return value;
    }
}
