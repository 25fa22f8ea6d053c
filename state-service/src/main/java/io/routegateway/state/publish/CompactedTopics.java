package io.routegateway.state.publish;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.core.event.Topics;
import io.smallrye.common.annotation.Identifier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.jboss.logging.Logger;

/**
 * Makes sure the state topics ({@link #NAMES}) exist with {@code cleanup.policy=compact} before anything is
 * published: creates the absent ones, and switches one that was auto-created by an early reader (as
 * {@code delete}) to {@code compact}. Blocking; runs once at start-up.
 */
@ApplicationScoped
public class CompactedTopics {

    public static final List<String> NAMES = List.of(
            Topics.CREDENTIAL_STATE, Topics.ACCESS_KEYS, Topics.GROUPS, Topics.SETTINGS, Topics.TEAMS, Topics.SPEND);

    private static final Logger LOG = Logger.getLogger(CompactedTopics.class);
    private static final long TIMEOUT_SECONDS = 60;

    private final Map<String, Object> kafkaConfig;
    private final OutboxConfig config;

    public CompactedTopics(@Identifier("default-kafka-broker") Map<String, Object> kafkaConfig, OutboxConfig config) {
        this.kafkaConfig = kafkaConfig;
        this.config = config;
    }

    public void ensure() {
        try (Admin admin = Admin.create(adminConfig())) {
            Set<String> existing = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            List<NewTopic> absent = new ArrayList<>();
            for (String name : NAMES) {
                if (!existing.contains(name)) {
                    absent.add(new NewTopic(
                                    name,
                                    Optional.of(config.topics().partitions()),
                                    config.topics().replicationFactor() < 0
                                            ? Optional.empty()
                                            : Optional.of(config.topics().replicationFactor()))
                            .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
                }
            }
            if (!absent.isEmpty()) {
                createIgnoringRaces(admin, absent);
            }
            compactWhereNeeded(admin, NAMES.stream().filter(existing::contains).toList());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while preparing the state topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not prepare the state topics " + NAMES + ": " + e, e);
        }
    }

    private void createIgnoringRaces(Admin admin, List<NewTopic> topics)
            throws InterruptedException, ExecutionException, TimeoutException {
        try {
            admin.createTopics(topics).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            LOG.infof(
                    "Created compacted topics %s with %d partitions",
                    topics.stream().map(NewTopic::name).toList(),
                    config.topics().partitions());
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) {
                throw e;
            }
            // another replica created it meanwhile; make sure it compacts
            compactWhereNeeded(admin, topics.stream().map(NewTopic::name).toList());
        }
    }

    private static void compactWhereNeeded(Admin admin, Collection<String> names)
            throws InterruptedException, ExecutionException, TimeoutException {
        if (names.isEmpty()) {
            return;
        }
        List<ConfigResource> resources = names.stream()
                .map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name))
                .toList();
        Map<ConfigResource, Config> configs =
                admin.describeConfigs(resources).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Map<ConfigResource, Collection<AlterConfigOp>> changes = new HashMap<>();
        for (Map.Entry<ConfigResource, Config> entry : configs.entrySet()) {
            ConfigEntry policy = entry.getValue().get(TopicConfig.CLEANUP_POLICY_CONFIG);
            if (policy == null || !policy.value().contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
                LOG.warnf(
                        "Topic %s has cleanup.policy=%s; switching it to compact",
                        entry.getKey().name(), policy == null ? null : policy.value());
                changes.put(
                        entry.getKey(),
                        List.of(new AlterConfigOp(
                                new ConfigEntry(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT),
                                AlterConfigOp.OpType.SET)));
            }
        }
        if (!changes.isEmpty()) {
            admin.incrementalAlterConfigs(changes).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    private Map<String, Object> adminConfig() {
        Map<String, Object> adminConfig = new HashMap<>();
        for (Map.Entry<String, Object> entry : kafkaConfig.entrySet()) {
            if (AdminClientConfig.configNames().contains(entry.getKey())) {
                adminConfig.put(entry.getKey(), entry.getValue());
            }
        }
        adminConfig.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "state-service-topics");
        return adminConfig;
    }
}
