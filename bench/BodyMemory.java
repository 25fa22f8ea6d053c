import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.routegateway.core.forward.ClientBodyReader;

/**
 * What one request body costs the gateway's heap once parsed, at the shipped bounds
 * (gateway.request.max-body-size 32M, max-json-depth 128, max-json-tokens 500000): for each shape,
 * the body's size, the heap the parsed tree holds (used heap after a full GC with the tree held,
 * minus before) and what parsing allocated in all (the thread's allocated bytes), or the refusal.
 * Shapes: the ones that cost the most heap per byte of text (empty objects, one-character strings,
 * small numbers) at the token bound and past it, one string as large as the body limit, and a long
 * chat. Run with bench/body_memory.sh (the gateway's own jars on the class path).
 */
public class BodyMemory {

    static final long MAX_BODY = 32L << 20;

    public static void main(String[] args) throws Exception {
        ClientBodyReader reader = new ClientBodyReader(new ClientBodyReader.Bounds(MAX_BODY, 128, 500_000, 1000));
        List<Object[]> shapes = new ArrayList<>();
        shapes.add(new Object[] {"[{},{},…] at the token bound", repeat("[", "{},", 249_998, "{}]")});
        shapes.add(new Object[] {"[{},{},…] 4 MB (past it)", repeat("[", "{},", 1_398_100, "{}]")});
        shapes.add(new Object[] {"[\"a\",\"a\",…] at the token bound", repeat("[", "\"a\",", 499_997, "\"a\"]")});
        shapes.add(new Object[] {"[1,1,…] at the token bound", repeat("[", "1,", 499_997, "1]")});
        shapes.add(new Object[] {"[[[…]]] 128 deep", "[".repeat(128) + "]".repeat(128)});
        StringBuilder big = new StringBuilder("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"");
        big.append("x".repeat((int) MAX_BODY - 100)).append("\"}]}");
        shapes.add(new Object[] {"one 32 MB string (the body limit)", big.toString()});
        StringBuilder chat = new StringBuilder("{\"model\":\"m\",\"messages\":[");
        String content = "lorem ipsum dolor sit amet ".repeat(300);
        for (int i = 0; i < 2000; i++) {
            chat.append(i == 0 ? "" : ",").append("{\"role\":\"user\",\"content\":\"").append(content).append("\"}");
        }
        chat.append("]}");
        shapes.add(new Object[] {"a chat of 2000 messages of 8 KB", chat.toString()});

        System.out.printf("%-40s %10s %12s %12s %8s  %s%n", "shape", "body MB", "held MB", "allocated MB", "held/body", "result");
        for (Object[] shape : shapes) {
            String label = (String) shape[0];
            byte[] body = ((String) shape[1]).getBytes(StandardCharsets.UTF_8);
            shape[1] = null;
            for (int round = 0; round < 3; round++) { // the last round is reported (JIT warm)
                long before = usedAfterGc();
                long allocatedBefore = allocated();
                ClientBodyReader.Result result = reader.read(body);
                long allocatedAfter = allocated();
                long held = usedAfterGc() - before;
                String outcome = result instanceof ClientBodyReader.Result.Refused r
                        ? "refused " + r.refusal().code() + ": " + r.refusal().message()
                        : "parsed";
                if (round == 2) {
                    System.out.printf(
                            "%-40s %10.2f %12.1f %12.1f %8.1f  %s%n",
                            label,
                            body.length / 1048576.0,
                            held / 1048576.0,
                            (allocatedAfter - allocatedBefore) / 1048576.0,
                            (double) held / body.length,
                            outcome);
                }
                keep(result);
            }
        }
    }

    static Object sink;

    /** Holds the tree past the measurement, so it is counted as held. */
    static void keep(Object result) {
        sink = result;
        sink = null;
    }

    static String repeat(String head, String unit, int times, String tail) {
        return head + unit.repeat(times) + tail;
    }

    static long usedAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
