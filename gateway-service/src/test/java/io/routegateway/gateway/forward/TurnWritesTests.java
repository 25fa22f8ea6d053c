package io.routegateway.gateway.forward;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The frames of one event-loop turn leave as one write after it; nothing is lost, reordered or held longer. */
class TurnWritesTests {

    private final Vertx vertx = Vertx.vertx();
    private final Context context = vertx.getOrCreateContext();
    private final List<Buffer> written = new CopyOnWriteArrayList<>();
    private final TurnWrites writes = new TurnWrites(context, written::add);

    @AfterEach
    void closeVertx() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** Runs on the context's event loop and waits until the turns after it have run too. */
    private void onLoop(Runnable turn) throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        context.runOnContext(ignored -> {
            turn.run();
            // queued behind the turn's own write task
            context.runOnContext(after -> done.complete(null));
        });
        done.get(10, TimeUnit.SECONDS);
    }

    private static List<String> texts(List<Buffer> buffers) {
        return buffers.stream().map(Buffer::toString).toList();
    }

    @Test
    void theFramesOfOneTurnLeaveAsOneWriteInOrder() throws Exception {
        onLoop(() -> {
            writes.add(Buffer.buffer("data: 1\n\n"));
            writes.add(Buffer.buffer("data: 2\n\n"));
            writes.add(Buffer.buffer("data: 3\n\n"));
            assertThat(written).as("nothing before the turn ends").isEmpty();
        });

        assertThat(texts(written)).containsExactly("data: 1\n\ndata: 2\n\ndata: 3\n\n");
    }

    @Test
    void framesOfSeparateTurnsLeaveSeparatelyAndALoneFrameAsItCame() throws Exception {
        Buffer lone = Buffer.buffer("data: 1\n\n");
        onLoop(() -> writes.add(lone));
        onLoop(() -> writes.add(Buffer.buffer("data: 2\n\n")));

        assertThat(texts(written)).containsExactly("data: 1\n\n", "data: 2\n\n");
        assertThat(written.get(0)).as("no copy of a lone frame").isSameAs(lone);
    }

    @Test
    void aMergedTurnDoesNotChangeTheFramesItWasGiven() throws Exception {
        Buffer first = Buffer.buffer("data: 1\n\n");
        onLoop(() -> {
            writes.add(first);
            writes.add(Buffer.buffer("data: 2\n\n"));
        });

        assertThat(first.toString()).isEqualTo("data: 1\n\n");
        assertThat(texts(written)).containsExactly("data: 1\n\ndata: 2\n\n");
    }

    @Test
    void writeNowLeavesNothingForTheEndOfTheTurnAndDiscardDropsWhatIsHeld() throws Exception {
        onLoop(() -> {
            writes.add(Buffer.buffer("data: 1\n\n"));
            writes.add(Buffer.buffer("data: 2\n\n"));
            writes.writeNow();
            // the response ends here: its end follows every frame
            written.add(Buffer.buffer("END"));
        });
        onLoop(() -> {
            writes.add(Buffer.buffer("data: 3\n\n"));
            writes.discard();
        });

        assertThat(texts(written)).containsExactly("data: 1\n\ndata: 2\n\n", "END");
    }

    @Test
    void manyLargeFramesInOneTurnArriveWhole() throws Exception {
        StringBuilder expected = new StringBuilder();
        onLoop(() -> {
            for (int i = 0; i < 1_000; i++) {
                String frame = "data: " + "x".repeat(i) + "\n\n";
                expected.append(frame);
                writes.add(Buffer.buffer(frame));
            }
        });

        assertThat(texts(written)).containsExactly(expected.toString());
    }
}
