package io.routegateway.state.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

/**
 * The console's files (the console module's build, on the classpath under {@code
 * META-INF/resources/console}) with the caching an upgrade needs and the compression the build
 * already did:
 *
 * <ul>
 *   <li>{@code index.html} (and the bare directory) is {@code Cache-Control: no-cache}: after an
 *       upgrade the browser asks again and gets the new bundle's names;
 *   <li>files under {@code assets/} carry a content hash in their name and never change: {@code
 *       public, max-age=31536000, immutable};
 *   <li>other files (the favicon) are cached for an hour;
 *   <li>the build writes {@code .br} and {@code .gz} beside every compressible file: the variant the
 *       request's {@code Accept-Encoding} takes (brotli first) is sent with its {@code
 *       Content-Encoding} and {@code Vary: Accept-Encoding}; nothing is compressed per request.
 * </ul>
 *
 * A path outside the console's files is left to the next handler (a 404). Files are read once and
 * kept in memory (the console is a few megabytes); reading happens off the event loop.
 */
final class ConsoleFiles {

    static final String ROOT = "META-INF/resources/console/";
    static final String IMMUTABLE = "public, max-age=31536000, immutable";
    static final String NO_CACHE = "no-cache";
    static final String HOUR = "public, max-age=3600";

    /** Only plain relative names: letters, digits, dot, dash, underscore, slash; never "..". */
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._/-]{1,200}");

    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html;charset=UTF-8",
            "js", "text/javascript;charset=UTF-8",
            "css", "text/css;charset=UTF-8",
            "svg", "image/svg+xml",
            "json", "application/json",
            "png", "image/png",
            "ico", "image/x-icon",
            "woff2", "font/woff2",
            "txt", "text/plain;charset=UTF-8");

    /** One file and its precompressed variants (absent when the build wrote none). */
    record Variants(byte[] identity, byte[] gzip, byte[] brotli) {}

    private final Map<String, Optional<Variants>> cache = new ConcurrentHashMap<>();
    private final ClassLoader loader;

    ConsoleFiles(ClassLoader loader) {
        this.loader = loader;
    }

    /** The relative name a request path under /console/ stands for, or empty when it is not one. */
    static Optional<String> relativeName(String path) {
        if (path == null || !path.startsWith(ConsoleRedirect.PATH)) {
            return Optional.empty();
        }
        String name = path.substring(ConsoleRedirect.PATH.length());
        if (name.isEmpty()) {
            return Optional.of("index.html");
        }
        if (!SAFE.matcher(name).matches() || name.contains("..") || name.startsWith("/") || name.contains("//")) {
            return Optional.empty();
        }
        return Optional.of(name);
    }

    static String cacheControl(String name) {
        if (name.equals("index.html")) {
            return NO_CACHE;
        }
        return name.startsWith("assets/") ? IMMUTABLE : HOUR;
    }

    static String contentType(String name) {
        int dot = name.lastIndexOf('.');
        String extension = dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
        return TYPES.getOrDefault(extension, "application/octet-stream");
    }

    /** The encoding to send: br or gzip when accepted (q above 0) and built, else identity. */
    static String chooseEncoding(String acceptEncoding, Variants variants) {
        if (acceptEncoding == null) {
            return "identity";
        }
        boolean brotli = false;
        boolean gzip = false;
        for (String part : acceptEncoding.split(",")) {
            String[] pieces = part.trim().split(";");
            String coding = pieces[0].trim().toLowerCase(Locale.ROOT);
            boolean refused = false;
            for (int i = 1; i < pieces.length; i++) {
                String parameter = pieces[i].trim().replace(" ", "");
                if (parameter.equals("q=0") || parameter.matches("q=0\\.0{0,3}")) {
                    refused = true;
                }
            }
            if (refused) {
                continue;
            }
            if (coding.equals("br")) {
                brotli = true;
            } else if (coding.equals("gzip") || coding.equals("*")) {
                gzip = true;
            }
        }
        if (brotli && variants.brotli() != null) {
            return "br";
        }
        if (gzip && variants.gzip() != null) {
            return "gzip";
        }
        return "identity";
    }

    Optional<Variants> variants(String name) {
        return cache.computeIfAbsent(name, this::load);
    }

    private Optional<Variants> load(String name) {
        byte[] identity = read(ROOT + name);
        if (identity == null) {
            return Optional.empty();
        }
        return Optional.of(new Variants(identity, read(ROOT + name + ".gz"), read(ROOT + name + ".br")));
    }

    private byte[] read(String resource) {
        try (InputStream in = loader.getResourceAsStream(resource)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void handle(RoutingContext context) {
        Optional<String> name = relativeName(context.normalizedPath());
        if (name.isEmpty()) {
            context.next();
            return;
        }
        context.vertx().executeBlocking(() -> variants(name.get()), false).onComplete(result -> {
            if (result.failed() || result.result().isEmpty()) {
                context.next();
                return;
            }
            send(context, name.get(), result.result().get());
        });
    }

    private static void send(RoutingContext context, String name, Variants variants) {
        String encoding = chooseEncoding(context.request().getHeader(HttpHeaders.ACCEPT_ENCODING), variants);
        byte[] body = switch (encoding) {
            case "br" -> variants.brotli();
            case "gzip" -> variants.gzip();
            default -> variants.identity();
        };
        var response = context.response();
        response.putHeader(HttpHeaders.CONTENT_TYPE, contentType(name));
        response.putHeader(HttpHeaders.CACHE_CONTROL, cacheControl(name));
        if (variants.gzip() != null || variants.brotli() != null) {
            response.putHeader(HttpHeaders.VARY, "Accept-Encoding");
        }
        if (!encoding.equals("identity")) {
            response.putHeader(HttpHeaders.CONTENT_ENCODING, encoding);
        }
        if (context.request().method().name().equals("HEAD")) {
            response.putHeader(HttpHeaders.CONTENT_LENGTH, String.valueOf(body.length))
                    .end();
        } else {
            response.end(Buffer.buffer(body));
        }
    }
}
