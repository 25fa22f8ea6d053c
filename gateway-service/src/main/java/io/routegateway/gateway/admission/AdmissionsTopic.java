package io.routegateway.gateway.admission;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.routegateway.core.event.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.jboss.logging.Logger;

/**
 * Creates {@link Topics#ADMISSIONS} when it is absent: deleted after {@code
 * gateway.admission.topic-retention} (leases matter for minutes), with the broker's default partition
 * count and replication. A topic that exists is left as it is (an operator may have created it with
 * other settings), and a gateway that may not create topics (no {@code Create} ACL) only logs it: then
 * the operator creates the topic (docs/deploy.md).
 */
final class AdmissionsTopic {

    private static final Logger LOG = Logger.getLogger(AdmissionsTopic.class);
    private static final long TIMEOUT_SECONDS = 10;

    private AdmissionsTopic() {}

    static void ensure(Map<String, Object> kafkaConfig, Duration retention) {
        try (Admin admin = Admin.create(adminConfig(kafkaConfig))) {
            Set<String> existing = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (existing.contains(Topics.ADMISSIONS)) {
                return;
            }
            NewTopic topic = new NewTopic(Topics.ADMISSIONS, Optional.empty(), Optional.empty())
                    .configs(Map.of(
                            TopicConfig.CLEANUP_POLICY_CONFIG,
                            TopicConfig.CLEANUP_POLICY_DELETE,
                            TopicConfig.RETENTION_MS_CONFIG,
                            Long.toString(retention.toMillis())));
            admin.createTopics(List.of(topic)).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            LOG.infof("Created %s (retention %s)", Topics.ADMISSIONS, retention);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                LOG.warnf(
                        "Could not create %s (%s); it must be created by the operator",
                        Topics.ADMISSIONS, e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warnf("Could not look for %s (%s); the lease reader will find it when it exists", Topics.ADMISSIONS, e);
        }
    }

    private static Map<String, Object> adminConfig(Map<String, Object> kafkaConfig) {
        Map<String, Object> config = new HashMap<>();
        for (Map.Entry<String, Object> entry : kafkaConfig.entrySet()) {
            if (AdminClientConfig.configNames().contains(entry.getKey())) {
                config.put(entry.getKey(), entry.getValue());
            }
        }
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "gateway-admissions-topic");
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        return config;
    }
}
