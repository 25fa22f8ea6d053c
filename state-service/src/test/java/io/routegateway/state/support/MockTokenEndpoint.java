package io.routegateway.state.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.routegateway.core.json.Json;

/**
 * A platform's OAuth token endpoint ({@code POST /oauth/token}) for state-service tests: each
 * account has one current refresh token, rotated on every successful refresh (the presented one is
 * retired; presenting a retired one again is a reuse and answers {@code invalid_grant}), and its own
 * switches (failure status, the permanent marker, a delay, a dropped connection, an answer that
 * echoes the presented token). Authorization codes are single use and check their verifier and
 * redirect URI. Counters are per account; every request's content type and fields are kept.
 */
public final class MockTokenEndpoint {

    public static final String PATH = "/oauth/token";

    /** One account of the mock authorization server. */
    public static final class Account {
        public final String id;
        public final AtomicInteger refreshCalls = new AtomicInteger();
        public final AtomicInteger refreshSuccesses = new AtomicInteger();
        public final AtomicInteger reuse = new AtomicInteger();
        public final AtomicInteger codeExchanges = new AtomicInteger();
        /** The content type and fields of every token call for this account. */
        public final List<Request> requests = new CopyOnWriteArrayList<>();

        public volatile String refreshToken;
        public volatile String accessToken;
        /** Answer every refresh with this status and {@code temporarily_unavailable}; 0 = off. */
        public volatile int failStatus;
        /** Answer every refresh with the permanent marker. */
        public volatile boolean invalidGrant;
        /** Wait this long before answering. */
        public volatile long delayMillis;
        /** Close the connection without an answer. */
        public volatile boolean drop;
        /** Fail with a description that quotes the presented refresh token. */
        public volatile boolean echoToken;
        /** Leave the refresh token out of refresh answers (as Google does). */
        public volatile boolean keepRefreshToken;

        public volatile long accessTtlSeconds = 3600;
        private final Set<String> retired = ConcurrentHashMap.newKeySet();
        private int generation;

        Account(String id) {
            this.id = id;
            this.refreshToken = "rt-" + id + "-0";
            this.accessToken = "at-" + id + "-0";
        }

        /** Issues the next access token and, when rotating, the next refresh token (the presented one retires). */
        synchronized void rotate(boolean newRefreshToken) {
            generation++;
            if (newRefreshToken) {
                retired.add(refreshToken);
                refreshToken = "rt-" + id + "-" + generation;
            }
            accessToken = "at-" + id + "-" + generation;
        }
    }

    /** One token call as received. */
    public record Request(String contentType, Map<String, String> fields) {}

    private record Code(String accountId, String verifier, String redirectUri) {}

    private static final Map<String, Account> ACCOUNTS = new ConcurrentHashMap<>();
    private static final Map<String, Code> CODES = new ConcurrentHashMap<>();
    private static HttpServer server;

    private MockTokenEndpoint() {}

    /** The token endpoint's URL (the server starts on first use). */
    public static synchronized String url() {
        if (server == null) {
            try {
                server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            server.setExecutor(Executors.newCachedThreadPool(task -> {
                Thread thread = new Thread(task, "mock-token-endpoint");
                thread.setDaemon(true);
                return thread;
            }));
            server.createContext(PATH, MockTokenEndpoint::handle);
            server.start();
        }
        return "http://127.0.0.1:" + server.getAddress().getPort() + PATH;
    }

    /** A new account with fresh material ({@code rt-<id>-0}, {@code at-<id>-0}). */
    public static Account grant(String accountId) {
        Account account = new Account(accountId);
        ACCOUNTS.put(accountId, account);
        return account;
    }

    /** An authorization code for the account, to be exchanged with this verifier and redirect URI. */
    public static String code(Account account, String verifier, String redirectUri) {
        String code = "code-" + account.id + "-" + CODES.size();
        CODES.put(code, new Code(account.id, verifier, redirectUri));
        return code;
    }

    private static Account owner(String refreshToken) {
        for (Account account : ACCOUNTS.values()) {
            if (refreshToken.equals(account.refreshToken) || account.retired.contains(refreshToken)) {
                return account;
            }
        }
        return null;
    }

    private static void handle(HttpExchange exchange) throws IOException {
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        String body;
        try (InputStream in = exchange.getRequestBody()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Map<String, String> fields = fields(contentType, body);
        String grant = fields.getOrDefault("grant_type", "");
        if (!"POST".equals(exchange.getRequestMethod())) {
            respond(exchange, 405, "{\"error\":\"invalid_request\"}");
        } else if (grant.equals("refresh_token")) {
            refresh(exchange, contentType, fields);
        } else if (grant.equals("authorization_code")) {
            exchangeCode(exchange, contentType, fields);
        } else {
            respond(exchange, 400, "{\"error\":\"unsupported_grant_type\"}");
        }
    }

    private static void refresh(HttpExchange exchange, String contentType, Map<String, String> fields)
            throws IOException {
        String presented = fields.getOrDefault("refresh_token", "");
        Account account = owner(presented);
        if (account == null) {
            respond(exchange, 400, "{\"error\":\"invalid_grant\",\"error_description\":\"unknown refresh token\"}");
            return;
        }
        account.requests.add(new Request(contentType, fields));
        account.refreshCalls.incrementAndGet();
        if (!pause(account, exchange)) {
            return;
        }
        if (account.failStatus > 0) {
            respond(
                    exchange,
                    account.failStatus,
                    "{\"error\":\"temporarily_unavailable\",\"error_description\":\"try again later\"}");
            return;
        }
        if (account.echoToken) {
            respond(
                    exchange,
                    500,
                    "{\"error\":\"server_error\",\"error_description\":\"could not refresh " + presented + "\"}");
            return;
        }
        if (account.invalidGrant) {
            respond(
                    exchange,
                    400,
                    "{\"error\":\"invalid_grant\",\"error_description\":\"refresh token has been revoked\"}");
            return;
        }
        String answer;
        synchronized (account) {
            if (!presented.equals(account.refreshToken)) {
                account.reuse.incrementAndGet();
                answer = null;
            } else {
                account.rotate(!account.keepRefreshToken);
                account.refreshSuccesses.incrementAndGet();
                answer = tokens(account, !account.keepRefreshToken);
            }
        }
        if (answer == null) {
            respond(
                    exchange,
                    400,
                    "{\"error\":\"invalid_grant\",\"error_description\":\"refresh token has been revoked\"}");
        } else {
            respond(exchange, 200, answer);
        }
    }

    private static void exchangeCode(HttpExchange exchange, String contentType, Map<String, String> fields)
            throws IOException {
        Code code = CODES.remove(fields.getOrDefault("code", ""));
        Account account = code == null ? null : ACCOUNTS.get(code.accountId());
        if (account == null
                || !code.verifier().equals(fields.get("code_verifier"))
                || !code.redirectUri().equals(fields.get("redirect_uri"))) {
            respond(
                    exchange,
                    400,
                    "{\"error\":\"invalid_grant\",\"error_description\":\"the code, verifier or redirect URI does not match\"}");
            return;
        }
        account.requests.add(new Request(contentType, fields));
        account.codeExchanges.incrementAndGet();
        respond(exchange, 200, tokens(account, true));
    }

    /** Waits the account's delay, or drops the connection; false when nothing more may be sent. */
    private static boolean pause(Account account, HttpExchange exchange) {
        if (account.delayMillis > 0) {
            try {
                Thread.sleep(account.delayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (account.drop) {
            exchange.close();
            return false;
        }
        return true;
    }

    private static String tokens(Account account, boolean withRefreshToken) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("access_token", account.accessToken);
        if (withRefreshToken) {
            answer.put("refresh_token", account.refreshToken);
        }
        answer.put("expires_in", account.accessTtlSeconds);
        answer.put("token_type", "Bearer");
        answer.put("id_token", idToken(account.id));
        answer.put("account", Map.of("uuid", account.id));
        return Json.write(answer);
    }

    /** An unsigned JWT carrying the ChatGPT account claim, as Codex's id token does. */
    private static String idToken(String accountId) {
        Base64.Encoder encoder = Base64.getUrlEncoder().withoutPadding();
        String header = encoder.encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8));
        String claims = encoder.encodeToString(
                Json.write(Map.of("https://api.openai.com/auth", Map.of("chatgpt_account_id", accountId)))
                        .getBytes(StandardCharsets.UTF_8));
        return header + "." + claims + ".sig";
    }

    private static Map<String, String> fields(String contentType, String body) {
        Map<String, String> fields = new LinkedHashMap<>();
        if (contentType != null && contentType.startsWith("application/json")) {
            try {
                JsonNode json = Json.MAPPER.readTree(body);
                for (Map.Entry<String, JsonNode> field : json.properties()) {
                    fields.put(field.getKey(), field.getValue().asText());
                }
            } catch (IOException | RuntimeException e) {
                // an unreadable body has no grant type: answered unsupported_grant_type
            }
            return fields;
        }
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                fields.put(
                        URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return fields;
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
