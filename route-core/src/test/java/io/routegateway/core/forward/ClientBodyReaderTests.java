package io.routegateway.core.forward;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class ClientBodyReaderTests {

    private static final ClientBodyReader READER =
            new ClientBodyReader(new ClientBodyReader.Bounds(1 << 20, 16, 1_000, 40));

    private static ClientBodyReader.Result read(String text) {
        return READER.read(text.getBytes(StandardCharsets.UTF_8));
    }

    private static Refusal refusal(ClientBodyReader.Result result) {
        assertThat(result).isInstanceOf(ClientBodyReader.Result.Refused.class);
        return ((ClientBodyReader.Result.Refused) result).refusal();
    }

    private static JsonNode parsed(ClientBodyReader.Result result) {
        assertThat(result).isInstanceOf(ClientBodyReader.Result.Parsed.class);
        return ((ClientBodyReader.Result.Parsed) result).body();
    }

    @Test
    void aChatBodyIsReadAndItsNumbersKeepTheirExactText() {
        JsonNode body = parsed(
                read(
                        "{\"model\":\"m\",\"temperature\":0.10,\"big\":1e999999,"
                                + "\"long\":123456789012345678901234567890,\"messages\":[{\"role\":\"user\",\"content\":\"héllo 😀\"}]}"));
        String written = Json.write(body);
        assertThat(written)
                .as("1e999999 is not turned into Infinity, 0.10 stays 0.10")
                .contains("\"temperature\":0.10")
                .contains("\"big\":1E+999999")
                .contains("\"long\":123456789012345678901234567890")
                .contains("héllo 😀")
                .doesNotContain("Infinity");
    }

    @Test
    void noBodyAndTextThatIsNotJsonReadAsNoBody() {
        assertThat(parsed(READER.read(null))).isNull();
        assertThat(parsed(READER.read(new byte[0]))).isNull();
        assertThat(parsed(read("{\"model\":"))).isNull();
    }

    @Test
    void nestingDeeperThanTheBoundIsRefusedNamingTheBound() {
        Refusal refused = refusal(read("[".repeat(17) + "]".repeat(17)));
        assertThat(refused.code()).isEqualTo(ClientBodyReader.JSON_LIMITS_EXCEEDED);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.message()).contains("16 levels");
        assertThat(parsed(read("[".repeat(16) + "]".repeat(16)))).isNotNull();
    }

    @Test
    void moreTokensThanTheBoundAreRefusedBeforeTheTreeGrowsOn() {
        // [{},{},…]: the shape that costs the most heap per byte of body
        String many = "[" + "{},".repeat(600) + "{}]";
        Refusal refused = refusal(read(many));
        assertThat(refused.code()).isEqualTo(ClientBodyReader.JSON_LIMITS_EXCEEDED);
        assertThat(refused.message()).contains("1000 JSON tokens").doesNotContain("{}");
        assertThat(parsed(read("[" + "{},".repeat(400) + "{}]"))).hasSize(401);
    }

    @Test
    void aNumberLongerThanTheBoundIsRefused() {
        Refusal refused = refusal(read("{\"n\":" + "9".repeat(41) + "}"));
        assertThat(refused.code()).isEqualTo(ClientBodyReader.JSON_LIMITS_EXCEEDED);
        assertThat(refused.message()).contains("40 characters");
    }

    @ParameterizedTest
    @ValueSource(strings = {"UTF-16LE", "UTF-16BE", "UTF-16", "UTF-32LE", "UTF-32BE"})
    void aBodyInAnotherEncodingThanUtf8IsRefused(String charset) {
        byte[] body = "{\"model\":\"m\"}".getBytes(Charset.forName(charset));
        Refusal refused = refusal(READER.read(body));
        assertThat(refused.code()).isEqualTo(ClientRequest.INVALID_JSON);
        assertThat(refused.message()).contains("must be UTF-8");
    }

    @Test
    void malformedOverlongAndSurrogateUtf8AreRefused() {
        int[][] bad = {
            {0xC0, 0xAF}, // overlong '/'
            {0xE0, 0x80, 0xAF}, // overlong '/', three bytes
            {0xF0, 0x80, 0x80, 0xAF}, // overlong, four bytes
            {0xED, 0xA0, 0x80}, // an encoded surrogate
            {0xF4, 0x90, 0x80, 0x80}, // past U+10FFFF
            {0xE2, 0x82}, // cut short
            {0x80}, // a lone continuation byte
            {0xFF},
        };
        for (int[] sequence : bad) {
            byte[] head = "{\"m\":\"".getBytes(StandardCharsets.US_ASCII);
            byte[] tail = "\"}".getBytes(StandardCharsets.US_ASCII);
            byte[] body = new byte[head.length + sequence.length + tail.length];
            System.arraycopy(head, 0, body, 0, head.length);
            for (int i = 0; i < sequence.length; i++) {
                body[head.length + i] = (byte) sequence[i];
            }
            System.arraycopy(tail, 0, body, head.length + sequence.length, tail.length);
            Refusal refused = refusal(READER.read(body));
            assertThat(refused.code()).isEqualTo(ClientRequest.INVALID_JSON);
            assertThat(refused.message()).contains("UTF-8");
        }
    }

    @Test
    void aLoneSurrogateEscapeIsRefusedAndAPairOrAnEscapedBackslashIsNot() {
        for (String lone : new String[] {"\\ud800", "\\uDC00", "\\ud800\\u0041", "\\ud800x", "\\udbff\\ud800"}) {
            Refusal refused = refusal(read("{\"c\":\"a" + lone + "\"}"));
            assertThat(refused.code()).as(lone).isEqualTo(ClientRequest.INVALID_JSON);
            assertThat(refused.message()).contains("lone surrogate");
        }
        assertThat(parsed(read("{\"c\":\"\\ud83d\\ude00\"}")).path("c").asText())
                .isEqualTo("😀");
        assertThat(parsed(read("{\"c\":\"\\\\ud800\"}")).path("c").asText())
                .as("an escaped backslash before ud800 is text, not an escape")
                .isEqualTo("\\ud800");
        assertThat(parsed(read("{\"c\":\"\\\\\\ud83d\\ude00\"}")).path("c").asText())
                .isEqualTo("\\😀");
    }

    @Test
    void everyStringJacksonWritesIsReadBack() {
        Random random = new Random(42);
        for (int round = 0; round < 500; round++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(20);
            while (text.length() < length) {
                int code = random.nextInt(5) == 0 ? 0x10000 + random.nextInt(0x100000) : random.nextInt(0xD800);
                text.appendCodePoint(code);
            }
            String body = Json.write(java.util.Map.of("content", text.toString()));
            assertThat(parsed(read(body)).path("content").asText()).isEqualTo(text.toString());
        }
    }
}
