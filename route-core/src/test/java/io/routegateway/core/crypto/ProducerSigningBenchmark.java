package io.routegateway.core.crypto;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.routegateway.core.crypto.StateSignature.Domain;
import io.routegateway.core.event.Topics;
import io.routegateway.core.event.UsageBatch;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the producer signature costs per Kafka message: the gateway signs each outcome message and
 * each usage batch once ({@code sign}), state-service verifies each once ({@code verify}). A usage
 * batch of {@code records} records of ~560 characters each (a realistic {@code RequestCompleted} with
 * an attempt chain of one), so the cost per batch and per record can both be read off; {@code
 * records = 1} is also an outcome message's size class.
 *
 * <p>Run: {@code bench/jmh.sh io.routegateway.core.crypto.ProducerSigningBenchmark} (3 warmup + 5
 * measurement iterations of 1 s, 1 fork unless other JMH arguments are given).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ProducerSigningBenchmark {

    @Param({"1", "50", "500"})
    int records;

    StateSigner signer;
    StateVerifier verifier;
    String batch;
    String signature;

    @Setup
    public void setUp() {
        signer = StateSigner.fromBase64Pkcs8(Domain.PRODUCER, "gateway-k1", ProducerSignatureTests.GATEWAY_PRIVATE);
        verifier = StateVerifier.fromSpec(Domain.PRODUCER, "gateway-k1=" + ProducerSignatureTests.GATEWAY_PUBLIC);
        List<String> list = new ArrayList<>(records);
        for (int i = 0; i < records; i++) {
            list.add("{\"request_id\":\"" + UUID.randomUUID()
                    + "\",\"occurred_at\":\"2026-12-06T15:00:00.123Z\",\"protocol\":\"openai\","
                    + "\"access_key_id\":\"ak-0123456789\",\"group_id\":\"g-default\",\"credential_id\":\"cred-042\","
                    + "\"requested_model\":\"gpt-4o-mini\",\"model_key\":\"gpt-4o-mini\",\"attempts\":1,\"status\":200,"
                    + "\"reason_code\":null,\"latency_ms\":812,\"ttft_ms\":143,\"input_tokens\":1200,"
                    + "\"output_tokens\":340,\"stream\":true,\"client_disconnected\":false,\"success\":true,"
                    + "\"probe\":false,\"team_id\":\"team-7\",\"cache_read_tokens\":0,\"reasoning_tokens\":0,"
                    + "\"attempt_chain\":[{\"credential_id\":\"cred-042\",\"status\":200,\"latency_ms\":810}]}");
        }
        batch = UsageBatch.encode(list);
        signature = signer.sign(Topics.USAGE, null, batch);
    }

    @Benchmark
    public String sign() {
        return signer.sign(Topics.USAGE, null, batch);
    }

    @Benchmark
    public StateVerifier.Result verify() {
        return verifier.verify(Topics.USAGE, null, batch, "gateway-k1", signature);
    }

    public static void main(String[] args) throws Exception {
        String[] jmhArgs = args.length > 0
                ? args
                : new String[] {
                    ProducerSigningBenchmark.class.getName(), "-wi", "3", "-i", "5", "-w", "1s", "-r", "1s", "-f", "1"
                };
        org.openjdk.jmh.Main.main(jmhArgs);
    }
}
