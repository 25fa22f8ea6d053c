package io.routegateway.core.select;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.select.Fixtures.NOW;
import static org.assertj.core.api.Assertions.assertThat;

class AffinityTests {

    private static JsonNode json(String text) throws Exception {
        return Json.MAPPER.readTree(text.replace('\'', '"'));
    }

    // ---- prompt prefix -----------------------------------------------------------------------

    @Test
    void openAiChatUsesTheSystemMessageElseTheFirstUserMessage() throws Exception {
        assertThat(Affinity.promptPrefix(
                        Protocol.OPENAI_CHAT,
                        json("{'messages':[{'role':'user','content':'hi'},{'role':'system','content':'Be terse.'}]}")))
                .isEqualTo("Be terse.");
        assertThat(
                        Affinity.promptPrefix(
                                Protocol.OPENAI_CHAT,
                                json(
                                        "{'messages':[{'role':'assistant','content':'x'},"
                                                + "{'role':'user','content':[{'type':'text','text':'first'},{'type':'text','text':'second'}]}]}")))
                .isEqualTo("first\nsecond");
    }

    @Test
    void responsesUsesInstructionsElseTheInput() throws Exception {
        assertThat(Affinity.promptPrefix(
                        Protocol.OPENAI_RESPONSES, json("{'instructions':'You are Codex.','input':'fix it'}")))
                .isEqualTo("You are Codex.");
        assertThat(Affinity.promptPrefix(Protocol.OPENAI_RESPONSES, json("{'input':'fix it'}")))
                .isEqualTo("fix it");
        assertThat(Affinity.promptPrefix(
                        Protocol.OPENAI_RESPONSES,
                        json("{'input':[{'role':'user','content':[{'type':'input_text','text':'refactor'}]}]}")))
                .isEqualTo("refactor");
    }

    @Test
    void anthropicUsesSystemElseTheFirstUserMessage() throws Exception {
        assertThat(Affinity.promptPrefix(
                        Protocol.ANTHROPIC_MESSAGES,
                        json("{'system':[{'type':'text','text':'You are Claude Code.'}],'messages':[]}")))
                .isEqualTo("You are Claude Code.");
        assertThat(Affinity.promptPrefix(
                        Protocol.ANTHROPIC_MESSAGES,
                        json("{'messages':[{'role':'user','content':[{'type':'text','text':'hello'}]}]}")))
                .isEqualTo("hello");
    }

    @Test
    void geminiUsesSystemInstructionElseTheFirstUserContent() throws Exception {
        assertThat(Affinity.promptPrefix(
                        Protocol.GEMINI,
                        json("{'systemInstruction':{'parts':[{'text':'Answer in French.'}]},'contents':[]}")))
                .isEqualTo("Answer in French.");
        assertThat(Affinity.promptPrefix(
                        Protocol.GEMINI,
                        json("{'contents':[{'role':'model','parts':[{'text':'no'}]},{'parts':[{'text':'bonjour'}]}]}")))
                .isEqualTo("bonjour");
    }

    @Test
    void prefixIsCutAt256CharactersAndMissingTextGivesNoPrefix() throws Exception {
        String longText = "x".repeat(1000);
        assertThat(Affinity.promptPrefix(Protocol.OPENAI_RESPONSES, json("{'input':'" + longText + "'}")))
                .hasSize(Affinity.PREFIX_CHARS);
        assertThat(Affinity.promptPrefix(Protocol.OPENAI_CHAT, json("{'messages':[]}")))
                .isNull();
        assertThat(Affinity.promptPrefix(Protocol.OPENAI_CHAT, json("[1,2]"))).isNull();
    }

    // ---- key ---------------------------------------------------------------------------------

    @Test
    void keyDependsOnAccessKeyProtocolAndPrefixOnly() {
        AffinityKey base = Affinity.key("k1", Protocol.OPENAI_CHAT, "You are helpful");
        assertThat(Affinity.key("k1", Protocol.OPENAI_CHAT, "You are helpful")).isEqualTo(base);
        assertThat(Affinity.key("k2", Protocol.OPENAI_CHAT, "You are helpful")).isNotEqualTo(base);
        assertThat(Affinity.key("k1", Protocol.ANTHROPIC_MESSAGES, "You are helpful"))
                .isNotEqualTo(base);
        assertThat(Affinity.key("k1", Protocol.OPENAI_CHAT, "You are helpfuL")).isNotEqualTo(base);
        assertThat(Affinity.key("k1", Protocol.OPENAI_CHAT, null)).isNull();
        String prefix = "p".repeat(Affinity.PREFIX_CHARS);
        assertThat(Affinity.key("k1", Protocol.OPENAI_CHAT, prefix + "tail-a"))
                .isEqualTo(Affinity.key("k1", Protocol.OPENAI_CHAT, prefix + "tail-b"));
    }

    @Test
    void keyIgnoresPreviousResponseIdAndConversation() throws Exception {
        RouteRequest first = RouteRequest.of(
                Fixtures.key("k").build(),
                Protocol.OPENAI_RESPONSES,
                "m",
                json("{'instructions':'sys','input':'a','previous_response_id':'resp_1'}"));
        RouteRequest second = RouteRequest.of(
                Fixtures.key("k").build(),
                Protocol.OPENAI_RESPONSES,
                "m",
                json("{'instructions':'sys','input':'b','previous_response_id':'resp_2','conversation':'c'}"));
        assertThat(first.affinityKey()).isNotNull().isEqualTo(second.affinityKey());
    }

    // ---- table -------------------------------------------------------------------------------

    private static AffinityKey k(int i) {
        return Affinity.key("key", Protocol.OPENAI_CHAT, "prefix " + i);
    }

    @Test
    void tableRemembersAndLooksUp() {
        AffinityTable table = new AffinityTable();
        assertThat(table.lookup(k(1), NOW)).isEmpty();
        table.remember(k(1), "g1", "c1", NOW);
        assertThat(table.lookup(k(1), NOW.plusSeconds(5))).contains(new AffinityTable.Target("g1", "c1", NOW));
        assertThat(table.capacity()).isEqualTo(10_000);
    }

    @Test
    void entryExpiresAfterItsTtl() {
        AffinityTable table = new AffinityTable(Duration.ofMinutes(10), 100);
        table.remember(k(1), "g1", "c1", NOW);
        assertThat(table.lookup(k(1), NOW.plus(Duration.ofMinutes(10)).minusMillis(1)))
                .isPresent();
        assertThat(table.lookup(k(1), NOW.plus(Duration.ofMinutes(10)))).isEmpty();
        assertThat(table.size()).isZero();
    }

    @Test
    void lookupDoesNotExtendTheTtlButRememberingAgainDoes() {
        AffinityTable table = new AffinityTable(Duration.ofSeconds(60), 100);
        table.remember(k(1), "g1", "c1", NOW);
        table.lookup(k(1), NOW.plusSeconds(50));
        assertThat(table.lookup(k(1), NOW.plusSeconds(61))).isEmpty();
        table.remember(k(1), "g1", "c1", NOW.plusSeconds(61));
        assertThat(table.lookup(k(1), NOW.plusSeconds(100))).isPresent();
    }

    @Test
    void overCapacityTheOldestEntryIsEvicted() {
        AffinityTable table = new AffinityTable(Duration.ofHours(1), 3);
        table.remember(k(1), "g", "c1", NOW);
        table.remember(k(2), "g", "c2", NOW.plusSeconds(1));
        table.remember(k(3), "g", "c3", NOW.plusSeconds(2));
        table.remember(k(1), "g", "c1b", NOW.plusSeconds(3)); // k1 is now the newest
        table.remember(k(4), "g", "c4", NOW.plusSeconds(4));
        assertThat(table.size()).isEqualTo(3);
        assertThat(table.lookup(k(2), NOW.plusSeconds(5))).isEmpty();
        assertThat(table.lookup(k(1), NOW.plusSeconds(5)).orElseThrow().credentialId())
                .isEqualTo("c1b");
        assertThat(table.lookup(k(3), NOW.plusSeconds(5))).isPresent();
        assertThat(table.lookup(k(4), NOW.plusSeconds(5))).isPresent();
    }

    @Test
    void expiredEntriesAtTheHeadArePurgedOnRemember() {
        AffinityTable table = new AffinityTable(Duration.ofSeconds(10), 100);
        table.remember(k(1), "g", "c1", NOW);
        table.remember(k(2), "g", "c2", NOW.plusSeconds(5));
        table.remember(k(3), "g", "c3", NOW.plusSeconds(12));
        assertThat(table.size()).isEqualTo(2);
    }

    @Test
    void concurrentRemembersAndLookupsStayWithinCapacity() throws Exception {
        AffinityTable table = new AffinityTable(Duration.ofHours(1), 500);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int thread = t;
            futures.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < 5_000; i++) {
                    table.remember(k(thread * 10_000 + i), "g", "c" + i, NOW.plusMillis(i));
                    table.lookup(k(thread * 10_000 + i / 2), NOW.plusMillis(i));
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> future : futures) {
            future.get();
        }
        pool.shutdown();
        assertThat(table.size()).isEqualTo(500);
    }
}
