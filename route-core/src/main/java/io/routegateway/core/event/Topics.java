package io.routegateway.core.event;

/** Kafka topic names, defined once for every service and test. */
public final class Topics {

    /** {@link CredentialEvent}s from gateways and recovery, keyed by credential id. */
    public static final String OUTCOMES = "route.outcomes";
    /** Outcome messages that could not be applied, with the error; never silently dropped. */
    public static final String OUTCOMES_DEAD_LETTER = "route.outcomes.dlq";
    /** {@link RequestCompleted} records, one per client request or probe. */
    public static final String USAGE = "route.usage";
    /** Usage records that could not be stored, with the reason; never silently dropped. */
    public static final String USAGE_DEAD_LETTER = "route.usage.dlq";
    /** Compacted: one {@link CredentialSnapshot} per credential id (null value = deleted). */
    public static final String CREDENTIAL_STATE = "route.credential-state";
    /** Compacted: one {@link AccessKeySnapshot} per access key id. */
    public static final String ACCESS_KEYS = "route.access-keys";
    /** Compacted: one {@link GroupSnapshot} per group id. */
    public static final String GROUPS = "route.groups";
    /** Compacted: one {@link RuntimeSettingsSnapshot}, key {@value RuntimeSettingsSnapshot#KEY}. */
    public static final String SETTINGS = "route.settings";
    /** Compacted: one {@link TeamSnapshot} per team id (null value = deleted). */
    public static final String TEAMS = "route.teams";
    /** Compacted: one {@link SpendSnapshot} per AccessKey or team with a budget. */
    public static final String SPEND = "route.spend";
    /**
     * {@link LeaseEvent}s between gateway replicas (short retention, not compacted): every replica
     * reads every partition, from a few minutes back at its start, to count cluster-wide.
     */
    public static final String ADMISSIONS = "route.admissions";

    /**
     * Header of a {@link #OUTCOMES} record naming the gateway replica that published it (an opaque id
     * drawn at its start): every replica applies its peers' outcomes to its view and skips its own,
     * which it applied before publishing them. Records without it (recovery-service's) are peers'.
     */
    public static final String ORIGIN_HEADER = "route-origin";

    private Topics() {}
}
