package io.routegateway.gateway.view;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.ObjectReader;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.event.RuntimeSettingsSnapshot;
import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.event.TeamSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.core.select.PoolView;

/**
 * The fold of verified state-topic records into the gateway's view, without I/O: a poll's records
 * are read into one {@link Batch} (the newest snapshot per credential, tombstones, the other
 * topics' changes in order), and the batch is applied to a {@link PoolView} where each entry only
 * moves to a higher version. {@link StateTopicsReader} polls, verifies, counts and logs around it.
 */
final class StateFold {

    private static final ObjectReader CREDENTIAL = Json.MAPPER.readerFor(CredentialSnapshot.class);
    private static final ObjectReader ACCESS_KEY = Json.MAPPER.readerFor(AccessKeySnapshot.class);
    private static final ObjectReader GROUP = Json.MAPPER.readerFor(GroupSnapshot.class);
    private static final ObjectReader SETTINGS = Json.MAPPER.readerFor(RuntimeSettingsSnapshot.class);
    private static final ObjectReader TEAM = Json.MAPPER.readerFor(TeamSnapshot.class);
    private static final ObjectReader SPEND = Json.MAPPER.readerFor(SpendSnapshot.class);

    /** Skip reason: the record names no entry (blank key of a tombstone, blank id in the value). */
    static final String NO_ID = "no_id";

    private StateFold() {}

    /** A tombstone on the access-key, group, team or spend topic. */
    record Removed(String topic, String id) {}

    /**
     * One poll's records, read.
     *
     * @param credentials the newest snapshot per credential id in the batch
     * @param removedCredentials credential tombstones not followed by a snapshot in the batch
     * @param others group, access-key, team and spend snapshots, their tombstones ({@link Removed})
     *     and runtime settings, in record order
     */
    record Batch(Map<String, CredentialSnapshot> credentials, Set<String> removedCredentials, List<Object> others) {

        Batch() {
            this(new LinkedHashMap<>(), new HashSet<>(), new ArrayList<>());
        }

        /** The newest runtime settings of the batch, or null. */
        RuntimeSettingsSnapshot newestSettings() {
            RuntimeSettingsSnapshot settings = null;
            for (Object other : others) {
                if (other instanceof RuntimeSettingsSnapshot next
                        && (settings == null || next.version() > settings.version())) {
                    settings = next;
                }
            }
            return settings;
        }
    }

    /**
     * Reads one record into the batch.
     *
     * @param value null for a tombstone
     * @return a skip reason ({@link #NO_ID}) when it names no entry, else null
     * @throws Exception when the value is not a snapshot of its topic (the reader skips it as unreadable)
     */
    static String read(Batch batch, String topic, String key, String value) throws Exception {
        switch (topic) {
            case Topics.CREDENTIAL_STATE:
                if (value == null) {
                    if (blank(key)) {
                        return NO_ID;
                    }
                    batch.credentials().remove(key);
                    batch.removedCredentials().add(key);
                } else {
                    CredentialSnapshot snapshot = CREDENTIAL.readValue(value);
                    if (snapshot == null || blank(snapshot.credentialId())) {
                        return NO_ID;
                    }
                    batch.removedCredentials().remove(snapshot.credentialId());
                    batch.credentials()
                            .merge(
                                    snapshot.credentialId(),
                                    snapshot,
                                    (held, next) -> next.version() > held.version() ? next : held);
                }
                break;
            case Topics.ACCESS_KEYS:
                if (value == null) {
                    return added(batch, blank(key) ? null : new Removed(Topics.ACCESS_KEYS, key));
                }
                AccessKeySnapshot accessKey = ACCESS_KEY.readValue(value);
                return added(batch, accessKey == null || blank(accessKey.accessKeyId()) ? null : accessKey);
            case Topics.GROUPS:
                if (value == null) {
                    return added(batch, blank(key) ? null : new Removed(Topics.GROUPS, key));
                }
                GroupSnapshot group = GROUP.readValue(value);
                return added(batch, group == null || blank(group.groupId()) ? null : group);
            case Topics.TEAMS:
                if (value == null) {
                    return added(batch, blank(key) ? null : new Removed(Topics.TEAMS, key));
                }
                TeamSnapshot team = TEAM.readValue(value);
                return added(batch, team == null || blank(team.teamId()) ? null : team);
            case Topics.SPEND:
                if (value == null) {
                    return added(batch, blank(key) ? null : new Removed(Topics.SPEND, key));
                }
                SpendSnapshot spend = SPEND.readValue(value);
                return added(
                        batch, spend == null || !isSubject(spend.subject()) || blank(spend.subjectId()) ? null : spend);
            case Topics.SETTINGS:
                // state-service never deletes the settings; a tombstone keeps the held ones
                if (value != null) {
                    RuntimeSettingsSnapshot settings = SETTINGS.readValue(value);
                    return added(batch, settings);
                }
                break;
            default:
                break;
        }
        return null;
    }

    /**
     * The view with the whole batch applied; runtime settings are held apart ({@link PoolViewHolder}),
     * teams and spend too ({@link LimitsView}).
     */
    static PoolView applied(PoolView view, Batch batch) {
        return applied(view, batch.credentials(), batch.removedCredentials(), batch.others());
    }

    static PoolView applied(
            PoolView view,
            Map<String, CredentialSnapshot> credentials,
            Set<String> removedCredentials,
            List<Object> others) {
        PoolView withOthers = view;
        for (Object change : others) {
            withOthers = appliedOther(withOthers, change);
        }
        PoolView next = withOthers;
        List<CredentialSnapshot> newer = new ArrayList<>();
        for (CredentialSnapshot snapshot : credentials.values()) {
            long held = next.credential(snapshot.credentialId())
                    .map(CredentialSnapshot::version)
                    .orElse(Long.MIN_VALUE);
            if (snapshot.version() > held) {
                newer.add(snapshot);
            }
        }
        boolean removes =
                removedCredentials.stream().anyMatch(id -> next.credential(id).isPresent());
        if (newer.size() <= 1 && !removes) {
            return newer.isEmpty() ? next : next.with(newer.get(0));
        }
        // several changes: one rebuild instead of one per record
        Map<String, CredentialSnapshot> all = new LinkedHashMap<>();
        for (CredentialSnapshot held : next.credentials()) {
            all.put(held.credentialId(), held);
        }
        removedCredentials.forEach(all::remove);
        for (CredentialSnapshot snapshot : newer) {
            all.put(snapshot.credentialId(), snapshot);
        }
        return PoolView.of(all.values(), next.groups(), next.accessKeys()).withStats(next.stats());
    }

    /** One group, access-key or settings change; an older or equal version changes nothing. */
    static PoolView appliedOther(PoolView view, Object change) {
        if (change instanceof RuntimeSettingsSnapshot || isLimits(change)) {
            return view; // held by PoolViewHolder and LimitsView
        }
        if (change instanceof Removed removed) {
            return removed.topic().equals(Topics.GROUPS)
                    ? view.withoutGroup(removed.id())
                    : view.withoutAccessKey(removed.id());
        }
        if (change instanceof GroupSnapshot group) {
            boolean newer = view.group(group.groupId())
                    .map(held -> group.version() > held.version())
                    .orElse(true);
            return newer ? view.with(group) : view;
        }
        if (change instanceof AccessKeySnapshot key) {
            boolean newer = view.accessKey(key.accessKeyId())
                    .map(held -> key.version() > held.version())
                    .orElse(true);
            return newer ? view.with(key) : view;
        }
        throw new IllegalArgumentException(
                "unknown state change " + change.getClass().getName());
    }

    /** A change {@link LimitsView} holds: a team or spend snapshot, or the removal of one. */
    static boolean isLimits(Object change) {
        return change instanceof TeamSnapshot
                || change instanceof SpendSnapshot
                || (change instanceof Removed removed
                        && (removed.topic().equals(Topics.TEAMS)
                                || removed.topic().equals(Topics.SPEND)));
    }

    /** The topic a change of {@link Batch#others} came from. */
    static String topicOf(Object change) {
        if (change instanceof Removed removed) {
            return removed.topic();
        }
        if (change instanceof TeamSnapshot) {
            return Topics.TEAMS;
        }
        if (change instanceof SpendSnapshot) {
            return Topics.SPEND;
        }
        if (change instanceof GroupSnapshot) {
            return Topics.GROUPS;
        }
        if (change instanceof AccessKeySnapshot) {
            return Topics.ACCESS_KEYS;
        }
        return Topics.SETTINGS;
    }

    private static String added(Batch batch, Object change) {
        if (change == null) {
            return NO_ID;
        }
        batch.others().add(change);
        return null;
    }

    private static boolean isSubject(String subject) {
        return SpendSnapshot.KEY.equals(subject) || SpendSnapshot.TEAM.equals(subject);
    }

    private static boolean blank(String id) {
        return id == null || id.isBlank();
    }
}
