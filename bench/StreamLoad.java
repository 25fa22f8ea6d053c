import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;

/**
 * The load client of the concurrent-streams and large-body scenarios (bench/streams.sh), run as a
 * single source file on the demo upstream's class path (Vert.x):
 *
 * <pre>
 * java -cp "$(cat demo-upstream/target/runtime-classpath.txt)" bench/StreamLoad.java \
 *   streams --port 19080 --key KEY --streams 1000 --frames 20 --interval-ms 50 --seconds 20 \
 *   --watch gateway=PID --watch upstream=PID
 * java ... bench/StreamLoad.java streams --port 19301 --key KEY ... --watch nginx=MASTER,WORKER1,WORKER2
 * java ... bench/StreamLoad.java body --port 19080 --key KEY --body-kb 200 --concurrency 4 --seconds 10 --watch gateway=PID
 * </pre>
 *
 * streams: N client slots, each on its own keep-alive connection, open one OpenAI Chat stream after
 * another ({@code "demo_stream":{"frames":F,"interval_ms":I}} asks the demo upstream for F frames I ms
 * apart; {@code --prompt-kb K} makes the user message K KB long); slots start spread over the ramp
 * so the accept queues are not flooded. Counted: the streams that end inside the measured window
 * (after the ramp and one stream length, up to the deadline): their time from request to last byte
 * (p50/p99), time to first byte, streams/s, frames (SSE events) received. For every watched
 * process: CPU (utime+stime from /proc/PID/stat) over the window divided by the frames received
 * (also without the JIT compiler threads), max RSS and max open file descriptors sampled every 500
 * ms. A watched name may stand for several processes ({@code
 * nginx=PID1,PID2}: a master and its workers): their CPU, RSS and descriptors are summed.
 *
 * body: C slots post one buffered request after another whose user message is B KB; CPU of each
 * watched process per request over the window.
 *
 * Prints one JSON object on stdout.
 */
public final class StreamLoad {

    static final long TICKS_PER_SECOND = 100; // USER_HZ on Linux

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>();
        Map<String, int[]> watch = new LinkedHashMap<>();
        String mode = args[0];
        for (int i = 1; i < args.length; i += 2) {
            String key = args[i].replaceFirst("^--", "");
            if (key.equals("watch")) {
                String[] pair = args[i + 1].split("=", 2);
                watch.put(pair[0], Stream.of(pair[1].split(","))
                        .map(String::trim)
                        .filter(pid -> !pid.isEmpty())
                        .mapToInt(Integer::parseInt)
                        .toArray());
            } else {
                opts.put(key, args[i + 1]);
            }
        }
        int port = Integer.parseInt(opts.getOrDefault("port", "19080"));
        String key = opts.getOrDefault("key", "bench");
        int seconds = Integer.parseInt(opts.getOrDefault("seconds", "20"));
        String label = opts.getOrDefault("label", mode);
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(Integer.parseInt(opts.getOrDefault("loops", "1"))));
        try {
            String json = mode.equals("streams")
                    ? new Streams(vertx, port, key, opts, watch, seconds, label).run()
                    : new Bodies(vertx, port, key, opts, watch, seconds, label).run();
            System.out.println(json);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    /** CPU seconds (utime + stime) of a process so far, from /proc/PID/stat. */
    static double cpuSeconds(int pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // fields[0] is field 3 (state); utime is field 14, stime field 15
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / (double) TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * CPU seconds of a process's threads other than the JIT compiler's (C1/C2): on a replica that
     * has not run long the compiler takes a large share, which a long-running one no longer pays.
     */
    static double cpuSecondsWithoutJit(int pid) {
        double total = 0;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler")) {
                        continue;
                    }
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    total += (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / (double) TICKS_PER_SECOND;
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
        return total;
    }

    static long rssKb(int pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone
        }
        return 0;
    }

    static int fds(int pid) {
        try (Stream<Path> list = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            return (int) list.count();
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** CPU seconds of several processes together (NaN when one of them is unreadable). */
    static double cpuSeconds(int[] pids) {
        double total = 0;
        for (int pid : pids) {
            total += cpuSeconds(pid);
        }
        return total;
    }

    static double cpuSecondsWithoutJit(int[] pids) {
        double total = 0;
        for (int pid : pids) {
            total += cpuSecondsWithoutJit(pid);
        }
        return total;
    }

    static long rssKb(int[] pids) {
        long total = 0;
        for (int pid : pids) {
            total += rssKb(pid);
        }
        return total;
    }

    static int fds(int[] pids) {
        int total = 0;
        for (int pid : pids) {
            total += fds(pid);
        }
        return total;
    }

    /**
     * Max RSS and fds of the watched processes, and their CPU over the measured window; a name
     * with several processes gets their sums (RSS and fds summed per sample, then the max).
     */
    static final class Watched {
        final Map<String, int[]> pids;
        final Map<String, long[]> max = new LinkedHashMap<>(); // rss kB, fds
        final Map<String, Double> cpuStart = new LinkedHashMap<>();
        final Map<String, Double> cpuEnd = new LinkedHashMap<>();
        final Map<String, Double> appStart = new LinkedHashMap<>();
        final Map<String, Double> appEnd = new LinkedHashMap<>();
        double wallStart;
        double wallEnd;

        Watched(Map<String, int[]> pids) {
            this.pids = pids;
            pids.keySet().forEach(name -> max.put(name, new long[2]));
        }

        void sample() {
            pids.forEach((name, pid) -> {
                long[] m = max.get(name);
                m[0] = Math.max(m[0], rssKb(pid));
                m[1] = Math.max(m[1], fds(pid));
            });
        }

        void start() {
            wallStart = System.nanoTime() / 1e9;
            pids.forEach((name, pid) -> {
                cpuStart.put(name, cpuSeconds(pid));
                appStart.put(name, cpuSecondsWithoutJit(pid));
            });
        }

        void end() {
            wallEnd = System.nanoTime() / 1e9;
            pids.forEach((name, pid) -> {
                cpuEnd.put(name, cpuSeconds(pid));
                appEnd.put(name, cpuSecondsWithoutJit(pid));
            });
        }

        /** name: {cpu_s, cpu_share, per-unit µs, rss_max_mb, fds_max} */
        void json(StringBuilder out, long units, String perUnit) {
            out.append(",\"processes\":{");
            boolean first = true;
            for (String name : pids.keySet()) {
                double cpu = cpuEnd.get(name) - cpuStart.get(name);
                double app = appEnd.get(name) - appStart.get(name);
                long[] m = max.get(name);
                out.append(first ? "" : ",").append('"').append(name).append("\":{")
                        .append(String.format(Locale.ROOT, "\"cpu_s\":%.2f,\"cpu_cores\":%.2f,\"cpu_us_per_%s\":%.1f,"
                                + "\"cpu_us_per_%s_without_jit\":%.1f,\"rss_max_mb\":%d,\"fds_max\":%d,\"pids\":%d}",
                                cpu, cpu / (wallEnd - wallStart), perUnit, units == 0 ? 0 : cpu * 1e6 / units,
                                perUnit, units == 0 ? 0 : app * 1e6 / units, m[0] / 1024, m[1],
                                pids.get(name).length));
                first = false;
            }
            out.append('}');
        }
    }

    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int index = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "";
        }
    }

    /** The concurrent-streams scenario. */
    static final class Streams {
        final Vertx vertx;
        final HttpClient client;
        final String key;
        final int slots;
        final int frames;
        final long intervalMs;
        final int seconds;
        final String label;
        final Watched watched;
        final Buffer body;
        final long rampMs;
        final AtomicLong framesInWindow = new AtomicLong();
        final AtomicInteger errors = new AtomicInteger();
        final AtomicInteger shortStreams = new AtomicInteger();
        final List<long[]> done = new ArrayList<>(); // stream nanos, ttfb nanos
        final int port;
        /** The streams the run asked for (more than {@link #slots} when the fd limit capped them). */
        final int asked;
        volatile boolean measuring;
        volatile boolean stopping;
        long deadlineNanos;

        Streams(Vertx vertx, int port, String key, Map<String, String> opts, Map<String, int[]> pids, int seconds,
                String label) {
            this.vertx = vertx;
            this.port = port;
            this.key = key;
            this.slots = Integer.parseInt(opts.getOrDefault("streams", "1000"));
            this.asked = Integer.parseInt(opts.getOrDefault("asked", String.valueOf(slots)));
            this.frames = Integer.parseInt(opts.getOrDefault("frames", "20"));
            this.intervalMs = Long.parseLong(opts.getOrDefault("interval-ms", "50"));
            this.seconds = seconds;
            this.label = label;
            this.watched = new Watched(pids);
            this.rampMs = Long.parseLong(opts.getOrDefault("ramp-ms", String.valueOf(Math.max(1000, slots / 2))));
            String model = opts.getOrDefault("model", "bench-model");
            // --prompt-kb: a long conversation's prompt, held by every proxy hop for the stream's length
            int promptKb = Integer.parseInt(opts.getOrDefault("prompt-kb", "0"));
            String prompt = promptKb == 0 ? "Count." : "Count. " + "x".repeat(promptKb * 1024);
            this.body = Buffer.buffer("{\"model\":\"" + model + "\",\"stream\":true,\"demo_stream\":{\"frames\":" + frames
                    + ",\"interval_ms\":" + intervalMs + "},\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt
                    + "\"}]}");
            this.client = vertx.createHttpClient(
                    new HttpClientOptions()
                            .setDefaultHost("127.0.0.1")
                            .setDefaultPort(port)
                            .setKeepAlive(true)
                            .setConnectTimeout(30_000)
                            .setIdleTimeout(120),
                    new PoolOptions().setHttp1MaxSize(slots).setMaxWaitQueueSize(-1));
        }

        String run() throws Exception {
            long streamMs = frames * intervalMs;
            long began = System.nanoTime();
            long windowStartMs = rampMs + streamMs + 500;
            deadlineNanos = began + TimeUnit.MILLISECONDS.toNanos(windowStartMs + seconds * 1000L);
            CountDownLatch finished = new CountDownLatch(slots);
            for (int i = 0; i < slots; i++) {
                long at = rampMs * i / slots;
                vertx.setTimer(Math.max(1, at), id -> loop(finished));
            }
            long sampler = vertx.setPeriodic(500, id -> vertx.executeBlocking(() -> {
                watched.sample();
                return null;
            }, false));
            Thread.sleep(windowStartMs);
            watched.start();
            measuring = true;
            long sleep = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
            Thread.sleep(Math.max(0, sleep));
            measuring = false;
            watched.end();
            stopping = true;
            boolean drained = finished.await(60 + streamMs / 1000 * 3, TimeUnit.SECONDS);
            vertx.cancelTimer(sampler);
            watched.sample();
            long[] times;
            long[] ttfb;
            synchronized (done) {
                times = done.stream().mapToLong(d -> d[0]).sorted().toArray();
                ttfb = done.stream().mapToLong(d -> d[1]).sorted().toArray();
            }
            double window = watched.wallEnd - watched.wallStart;
            StringBuilder out = new StringBuilder();
            out.append(String.format(Locale.ROOT,
                    "{\"label\":\"%s\",\"port\":%d,\"asked\":%d,\"streams\":%d,\"frames\":%d,\"interval_ms\":%d,\"window_s\":%.1f,"
                            + "\"completed\":%d,\"streams_per_s\":%.1f,\"stream_p50_s\":%.3f,\"stream_p99_s\":%.3f,"
                            + "\"ttfb_p50_ms\":%.2f,\"ttfb_p99_ms\":%.2f,\"frames_received\":%d,\"frames_per_s\":%.0f,"
                            + "\"errors\":%d,\"short_streams\":%d,\"drained\":%b,\"loadavg\":\"%s\"",
                    label, port, asked, slots, frames, intervalMs, window, times.length, times.length / window,
                    percentile(times, 0.5) / 1e9, percentile(times, 0.99) / 1e9,
                    percentile(ttfb, 0.5) / 1e6, percentile(ttfb, 0.99) / 1e6,
                    framesInWindow.get(), framesInWindow.get() / window, errors.get(), shortStreams.get(), drained,
                    load()));
            watched.json(out, framesInWindow.get(), "frame");
            out.append('}');
            return out.toString();
        }

        /** One slot: a stream, then the next, until the deadline. */
        void loop(CountDownLatch finished) {
            if (stopping || System.nanoTime() >= deadlineNanos) {
                finished.countDown();
                return;
            }
            long sent = System.nanoTime();
            long[] first = {0};
            int[] events = {0};
            int[] tail = {0}; // bytes of a possible "\n\n" split over chunks: the last byte was '\n'
            client.request(new RequestOptions()
                            .setMethod(HttpMethod.POST)
                            .setURI("/v1/chat/completions")
                            .putHeader("content-type", "application/json")
                            .putHeader("accept", "text/event-stream")
                            .putHeader("authorization", "Bearer " + key))
                    .compose(request -> request.send(body))
                    .onSuccess(response -> {
                        if (response.statusCode() != 200) {
                            errors.incrementAndGet();
                        }
                        response.handler(chunk -> {
                            if (first[0] == 0) {
                                first[0] = System.nanoTime();
                            }
                            int n = 0;
                            int len = chunk.length();
                            for (int i = 0; i < len; i++) {
                                byte b = chunk.getByte(i);
                                if (b == '\n') {
                                    if (tail[0] == 1) {
                                        n++;
                                        tail[0] = 0;
                                    } else {
                                        tail[0] = 1;
                                    }
                                } else if (b != '\r') {
                                    tail[0] = 0;
                                }
                            }
                            events[0] += n;
                            if (measuring) {
                                framesInWindow.addAndGet(n);
                            }
                        });
                        response.endHandler(ignored -> {
                            long end = System.nanoTime();
                            if (measuring && response.statusCode() == 200) {
                                synchronized (done) {
                                    done.add(new long[] {end - sent, first[0] - sent});
                                }
                            }
                            if (events[0] < frames) {
                                shortStreams.incrementAndGet();
                            }
                            loop(finished);
                        });
                        response.exceptionHandler(failure -> {
                            errors.incrementAndGet();
                        });
                    })
                    .onFailure(failure -> {
                        errors.incrementAndGet();
                        vertx.setTimer(100, id -> loop(finished));
                    });
        }
    }

    /** The large-body scenario: buffered requests of B KB each. */
    static final class Bodies {
        final Vertx vertx;
        final HttpClient client;
        final String key;
        final int concurrency;
        final int bodyKb;
        final int seconds;
        final String label;
        final Watched watched;
        final Buffer body;
        final AtomicLong inWindow = new AtomicLong();
        final AtomicInteger errors = new AtomicInteger();
        final int port;
        volatile boolean measuring;
        volatile long deadlineNanos;

        Bodies(Vertx vertx, int port, String key, Map<String, String> opts, Map<String, int[]> pids, int seconds,
                String label) {
            this.vertx = vertx;
            this.port = port;
            this.key = key;
            this.concurrency = Integer.parseInt(opts.getOrDefault("concurrency", "4"));
            this.bodyKb = Integer.parseInt(opts.getOrDefault("body-kb", "200"));
            this.seconds = seconds;
            this.label = label;
            this.watched = new Watched(pids);
            String model = opts.getOrDefault("model", "bench-model");
            // a prompt of plain words, as a pasted document would be
            char[] words = new char[Math.max(1, bodyKb * 1024 - 120)];
            for (int i = 0; i < words.length; i++) {
                words[i] = i % 6 == 5 ? ' ' : (char) ('a' + i % 26);
            }
            this.body = Buffer.buffer("{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\""
                    + new String(words) + "\"}]}");
            this.client = vertx.createHttpClient(
                    new HttpClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port).setKeepAlive(true),
                    new PoolOptions().setHttp1MaxSize(concurrency));
        }

        String run() throws Exception {
            long warmMs = 3000;
            deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(warmMs + seconds * 1000L);
            CountDownLatch finished = new CountDownLatch(concurrency);
            for (int i = 0; i < concurrency; i++) {
                vertx.runOnContext(ignored -> loop(finished));
            }
            long sampler = vertx.setPeriodic(500, id -> vertx.executeBlocking(() -> {
                watched.sample();
                return null;
            }, false));
            Thread.sleep(warmMs);
            watched.start();
            measuring = true;
            Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime())));
            measuring = false;
            watched.end();
            finished.await(60, TimeUnit.SECONDS);
            vertx.cancelTimer(sampler);
            double window = watched.wallEnd - watched.wallStart;
            StringBuilder out = new StringBuilder();
            out.append(String.format(Locale.ROOT,
                    "{\"label\":\"%s\",\"port\":%d,\"body_bytes\":%d,\"concurrency\":%d,\"window_s\":%.1f,"
                            + "\"requests\":%d,\"requests_per_s\":%.1f,\"errors\":%d,\"loadavg\":\"%s\"",
                    label, port, body.length(), concurrency, window, inWindow.get(), inWindow.get() / window,
                    errors.get(), load()));
            watched.json(out, inWindow.get(), "request");
            out.append('}');
            return out.toString();
        }

        void loop(CountDownLatch finished) {
            if (System.nanoTime() >= deadlineNanos) {
                finished.countDown();
                return;
            }
            client.request(new RequestOptions()
                            .setMethod(HttpMethod.POST)
                            .setURI("/v1/chat/completions")
                            .putHeader("content-type", "application/json")
                            .putHeader("authorization", "Bearer " + key))
                    .compose(request -> request.send(body))
                    .compose(response -> response.body().map(ignored -> response.statusCode()))
                    .onComplete(result -> {
                        if (result.failed() || result.result() != 200) {
                            errors.incrementAndGet();
                        } else if (measuring) {
                            inWindow.incrementAndGet();
                        }
                        loop(finished);
                    });
        }
    }

    private StreamLoad() {}
}
