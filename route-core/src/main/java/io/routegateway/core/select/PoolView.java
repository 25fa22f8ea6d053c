package io.routegateway.core.select;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

import io.routegateway.core.access.AccessKeys;
import io.routegateway.core.access.ModelPatterns;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelMapping;

/**
 * The immutable routing view built from the compacted snapshots (credentials, groups, access keys)
 * plus the caller's recent outcome counts: what {@link Router} reads on every request.
 *
 * <p><b>Indexes.</b> Credentials get a dense ordinal (sorted by id). Each group holds its members
 * — non-archived credentials listing the group — in the pool's <em>original order</em>: priority
 * ascending, then credential id; that order is the stable tiebreak of the cooling fallback. Each
 * group lazily memoises, per requested model name, the result of selection steps 1–3 (see {@link
 * SelectionSteps}); a request then only runs step 5 over precomputed arrays. Access keys are
 * indexed by id and by hash. Effective credential weights are precomputed per ordinal.
 *
 * <p><b>Costs.</b> {@link #of} is O(n log n) in credentials (one sort). Updates return a new view:
 *
 * <ul>
 *   <li>{@link #with(CredentialSnapshot)} for a credential whose routing shape (enabled, archived,
 *       in pool, account status, quota above zero, platform, kind, mappings, priority, groups) is
 *       unchanged — every cooldown, model row, failure count, weight or name change, i.e. every
 *       outcome the gateway applies locally — copies two arrays of n references/ints and keeps
 *       every index: O(n) memory copy, about a microsecond for 1,000 credentials;
 *   <li>any other credential change, a new or removed credential: full rebuild, O(n log n), and
 *       the per-model indexes refill lazily on the next requests;
 *   <li>{@link #with(GroupSnapshot)}: O(groups) for an existing group (its members and index are
 *       kept), plus O(n) to collect members for a new one;
 *   <li>{@link #with(AccessKeySnapshot)}: O(keys); {@link #withStats}: O(n).
 * </ul>
 *
 * <p>Thread-safe: nothing changes after construction except the memo, a {@code
 * ConcurrentHashMap}. A gateway keeps the current view in an {@code AtomicReference}.
 *
 * <p><b>Archived</b> credentials stay addressable through {@link #credential(String)} but belong to
 * no group: for routing and for {@code no_credentials} they are gone.
 */
public final class PoolView {

    public static final PoolView EMPTY = of(List.of(), List.of(), List.of());

    private final CredentialEntry[] entries;
    private final Map<String, Integer> ordinalById;
    private final int[] weights;
    private final Map<String, GroupEntry> groups;
    private final Map<String, AccessKeySnapshot> keysById;
    private final Map<String, AccessKeySnapshot> keysByHash;
    private final Map<String, CredentialStats> stats;

    private PoolView(
            CredentialEntry[] entries,
            Map<String, Integer> ordinalById,
            int[] weights,
            Map<String, GroupEntry> groups,
            Map<String, AccessKeySnapshot> keysById,
            Map<String, AccessKeySnapshot> keysByHash,
            Map<String, CredentialStats> stats) {
        this.entries = entries;
        this.ordinalById = ordinalById;
        this.weights = weights;
        this.groups = groups;
        this.keysById = keysById;
        this.keysByHash = keysByHash;
        this.stats = stats;
    }

    /** A view over the given snapshots; a repeated id keeps the last one. No recent stats. */
    public static PoolView of(
            Collection<CredentialSnapshot> credentials,
            Collection<GroupSnapshot> groups,
            Collection<AccessKeySnapshot> accessKeys) {
        Map<String, AccessKeySnapshot> keys = new TreeMap<>();
        for (AccessKeySnapshot key : accessKeys) {
            keys.put(key.accessKeyId(), key);
        }
        Map<String, GroupSnapshot> groupsById = new TreeMap<>();
        for (GroupSnapshot group : groups) {
            groupsById.put(group.groupId(), group);
        }
        return build(credentials, groupsById.values(), keys, Map.of());
    }

    private static PoolView build(
            Collection<CredentialSnapshot> credentials,
            Collection<GroupSnapshot> groupSnapshots,
            Map<String, AccessKeySnapshot> keysById,
            Map<String, CredentialStats> stats) {
        TreeMap<String, CredentialSnapshot> byId = new TreeMap<>();
        for (CredentialSnapshot credential : credentials) {
            byId.put(credential.credentialId(), credential);
        }
        CredentialEntry[] entries = new CredentialEntry[byId.size()];
        Map<String, Integer> ordinals = new HashMap<>(byId.size() * 2);
        int[] weights = new int[byId.size()];
        Map<String, List<Integer>> membersByGroup = new HashMap<>();
        int ordinal = 0;
        for (CredentialSnapshot credential : byId.values()) {
            entries[ordinal] = new CredentialEntry(credential, ordinal);
            ordinals.put(credential.credentialId(), ordinal);
            weights[ordinal] = weightOf(credential, stats);
            if (!credential.archived()) {
                for (String groupId : credential.groupIds()) {
                    List<Integer> members = membersByGroup.computeIfAbsent(groupId, id -> new ArrayList<>());
                    if (members.isEmpty() || members.get(members.size() - 1) != ordinal) {
                        members.add(ordinal);
                    }
                }
            }
            ordinal++;
        }
        TreeMap<String, GroupEntry> groups = new TreeMap<>();
        for (GroupSnapshot group : groupSnapshots) {
            List<Integer> members = membersByGroup.getOrDefault(group.groupId(), List.of());
            groups.put(group.groupId(), new GroupEntry(group, originalOrder(entries, members)));
        }
        return new PoolView(
                entries,
                Collections.unmodifiableMap(ordinals),
                weights,
                Collections.unmodifiableMap(groups),
                Collections.unmodifiableMap(new TreeMap<>(keysById)),
                indexByHash(keysById.values()),
                stats);
    }

    /** Members sorted by priority, then id (entries are id-sorted, so a stable sort by priority). */
    private static int[] originalOrder(CredentialEntry[] entries, List<Integer> members) {
        Integer[] boxed = members.toArray(new Integer[0]);
        Arrays.sort(boxed, (a, b) -> Integer.compare(entries[a].snapshot.priority(), entries[b].snapshot.priority()));
        int[] order = new int[boxed.length];
        for (int i = 0; i < boxed.length; i++) {
            order[i] = boxed[i];
        }
        return order;
    }

    private static Map<String, AccessKeySnapshot> indexByHash(Collection<AccessKeySnapshot> keys) {
        Map<String, AccessKeySnapshot> byHash = new HashMap<>();
        for (AccessKeySnapshot key : keys) {
            if (key.keyHash() != null) {
                byHash.put(AccessKeys.normalizeHash(key.keyHash()), key);
            }
        }
        return Collections.unmodifiableMap(byHash);
    }

    private static int weightOf(CredentialSnapshot credential, Map<String, CredentialStats> stats) {
        return CredentialChooser.effectiveWeight(
                credential, stats.getOrDefault(credential.credentialId(), CredentialStats.NONE));
    }

    // ---- updates -------------------------------------------------------------------------------

    /**
     * This view with {@code credential} added or replaced, unconditionally (the gateway applies
     * its own outcomes this way). See the class comment for the cost.
     */
    public PoolView with(CredentialSnapshot credential) {
        Integer ordinal = ordinalById.get(credential.credentialId());
        if (ordinal != null && sameRoutingShape(entries[ordinal].snapshot, credential)) {
            CredentialEntry[] nextEntries = entries.clone();
            nextEntries[ordinal] = new CredentialEntry(credential, ordinal);
            int[] nextWeights = weights;
            int weight = weightOf(credential, stats);
            if (weight != weights[ordinal]) {
                nextWeights = weights.clone();
                nextWeights[ordinal] = weight;
            }
            return new PoolView(nextEntries, ordinalById, nextWeights, groups, keysById, keysByHash, stats);
        }
        List<CredentialSnapshot> next = new ArrayList<>(entries.length + 1);
        for (CredentialEntry entry : entries) {
            if (!entry.id.equals(credential.credentialId())) {
                next.add(entry.snapshot);
            }
        }
        next.add(credential);
        return build(next, groupSnapshots(), keysById, stats);
    }

    /**
     * Applies {@code credential} only when its version is above the one held (the compacted
     * topic's rule); otherwise returns this view.
     */
    public PoolView withIfNewer(CredentialSnapshot credential) {
        Integer ordinal = ordinalById.get(credential.credentialId());
        if (ordinal != null && entries[ordinal].snapshot.version() >= credential.version()) {
            return this;
        }
        return with(credential);
    }

    /** This view without the credential (a tombstone on the compacted topic). Full rebuild. */
    public PoolView withoutCredential(String credentialId) {
        if (!ordinalById.containsKey(credentialId)) {
            return this;
        }
        List<CredentialSnapshot> next = new ArrayList<>(entries.length);
        for (CredentialEntry entry : entries) {
            if (!entry.id.equals(credentialId)) {
                next.add(entry.snapshot);
            }
        }
        return build(next, groupSnapshots(), keysById, stats);
    }

    /** This view with the group added or replaced. */
    public PoolView with(GroupSnapshot group) {
        TreeMap<String, GroupEntry> next = new TreeMap<>(groups);
        GroupEntry existing = groups.get(group.groupId());
        if (existing != null) {
            next.put(group.groupId(), existing.withGroup(group));
        } else {
            List<Integer> members = new ArrayList<>();
            for (CredentialEntry entry : entries) {
                if (!entry.snapshot.archived() && entry.snapshot.groupIds().contains(group.groupId())) {
                    members.add(entry.ordinal);
                }
            }
            next.put(group.groupId(), new GroupEntry(group, originalOrder(entries, members)));
        }
        return new PoolView(
                entries, ordinalById, weights, Collections.unmodifiableMap(next), keysById, keysByHash, stats);
    }

    public PoolView withoutGroup(String groupId) {
        if (!groups.containsKey(groupId)) {
            return this;
        }
        TreeMap<String, GroupEntry> next = new TreeMap<>(groups);
        next.remove(groupId);
        return new PoolView(
                entries, ordinalById, weights, Collections.unmodifiableMap(next), keysById, keysByHash, stats);
    }

    /** This view with the access key added or replaced. */
    public PoolView with(AccessKeySnapshot key) {
        TreeMap<String, AccessKeySnapshot> next = new TreeMap<>(keysById);
        next.put(key.accessKeyId(), key);
        return new PoolView(
                entries,
                ordinalById,
                weights,
                groups,
                Collections.unmodifiableMap(next),
                indexByHash(next.values()),
                stats);
    }

    public PoolView withoutAccessKey(String accessKeyId) {
        if (!keysById.containsKey(accessKeyId)) {
            return this;
        }
        TreeMap<String, AccessKeySnapshot> next = new TreeMap<>(keysById);
        next.remove(accessKeyId);
        return new PoolView(
                entries,
                ordinalById,
                weights,
                groups,
                Collections.unmodifiableMap(next),
                indexByHash(next.values()),
                stats);
    }

    /**
     * This view with the caller's recent outcome counts, replacing the previous ones (credentials
     * missing from the map have no history). O(n); a gateway refreshes it every few seconds.
     */
    public PoolView withStats(Map<String, CredentialStats> recentStats) {
        Map<String, CredentialStats> copy = Map.copyOf(recentStats);
        int[] nextWeights = new int[entries.length];
        for (CredentialEntry entry : entries) {
            nextWeights[entry.ordinal] = weightOf(entry.snapshot, copy);
        }
        return new PoolView(entries, ordinalById, nextWeights, groups, keysById, keysByHash, copy);
    }

    /**
     * Whether two snapshots of one credential give the same result for selection steps 1–3 and
     * the same place in every pool's original order.
     */
    static boolean sameRoutingShape(CredentialSnapshot a, CredentialSnapshot b) {
        return a.enabled() == b.enabled()
                && a.archived() == b.archived()
                && a.inPool() == b.inPool()
                && a.account().status() == b.account().status()
                && a.authUnavailable() == b.authUnavailable()
                && SelectionSteps.hasQuota(a) == SelectionSteps.hasQuota(b)
                && a.platform() == b.platform()
                && a.kind() == b.kind()
                && a.priority() == b.priority()
                && a.modelMappings().equals(b.modelMappings())
                && a.groupIds().equals(b.groupIds());
    }

    // ---- reads ---------------------------------------------------------------------------------

    public Optional<CredentialSnapshot> credential(String credentialId) {
        Integer ordinal = ordinalById.get(credentialId);
        return ordinal == null ? Optional.empty() : Optional.of(entries[ordinal].snapshot);
    }

    /** Every credential, archived ones included, by id. */
    public List<CredentialSnapshot> credentials() {
        List<CredentialSnapshot> all = new ArrayList<>(entries.length);
        for (CredentialEntry entry : entries) {
            all.add(entry.snapshot);
        }
        return all;
    }

    public Optional<GroupSnapshot> group(String groupId) {
        GroupEntry entry = groups.get(groupId);
        return entry == null ? Optional.empty() : Optional.of(entry.group);
    }

    /** Every group, by id. */
    public List<GroupSnapshot> groups() {
        return groupSnapshots();
    }

    /** A group's pool in original order (priority, then id); empty for an unknown group. */
    public List<CredentialSnapshot> pool(String groupId) {
        GroupEntry entry = groups.get(groupId);
        if (entry == null) {
            return List.of();
        }
        List<CredentialSnapshot> pool = new ArrayList<>(entry.members.length);
        for (int member : entry.members) {
            pool.add(entries[member].snapshot);
        }
        return pool;
    }

    public Optional<AccessKeySnapshot> accessKey(String accessKeyId) {
        return Optional.ofNullable(keysById.get(accessKeyId));
    }

    public List<AccessKeySnapshot> accessKeys() {
        return List.copyOf(keysById.values());
    }

    /** The key whose stored hash is {@code hash} (hex SHA-256, any case). */
    public Optional<AccessKeySnapshot> accessKeyByHash(String hash) {
        return Optional.ofNullable(hash == null ? null : keysByHash.get(AccessKeys.normalizeHash(hash)));
    }

    /**
     * The key a client presented, found by the SHA-256 of the plaintext; the stored hash is then
     * confirmed with a constant-time comparison. Empty when no key matches (→ {@code
     * invalid_access_key}).
     */
    public Optional<AccessKeySnapshot> authenticate(String plaintext) {
        if (plaintext == null || plaintext.isEmpty()) {
            return Optional.empty();
        }
        String hash = AccessKeys.hash(plaintext);
        AccessKeySnapshot key = keysByHash.get(hash);
        if (key == null || !AccessKeys.constantTimeEquals(hash, AccessKeys.normalizeHash(key.keyHash()))) {
            return Optional.empty();
        }
        return Optional.of(key);
    }

    public Map<String, CredentialStats> stats() {
        return stats;
    }

    /** The effective weight selection uses (manual weight, or the auto weight from the stats). */
    public int effectiveWeight(String credentialId) {
        Integer ordinal = ordinalById.get(credentialId);
        return ordinal == null ? 0 : weights[ordinal];
    }

    /**
     * The model list of {@code GET /v1/models} for a key: for each group in the key's scope that
     * is enabled with an effective weight above 0, its exposed models, or — when it exposes "any
     * model its credentials serve" — the models its enabled, in-pool credentials (that the platform
     * rule accepts) are configured for: each non-catch-all mapping's {@code from}, or the platform
     * baseline for official and mapping-less accounts. Filtered by the key's model restriction;
     * sorted, distinct.
     *
     * <p>Paused or errored models and cooling or errored accounts are deliberately <em>not</em>
     * filtered out (spec: a pause is temporary, and a request returns {@code
     * route_pool.model_unavailable}, which is itself the answer). A pass-through catch-all mapping
     * serves names it cannot enumerate; they are not listed.
     */
    public List<String> modelsFor(AccessKeySnapshot key) {
        TreeSet<String> models = new TreeSet<>();
        for (String groupId : key.groupIds()) {
            GroupEntry entry = groups.get(groupId);
            if (entry == null || !entry.group.enabled() || entry.group.effectiveWeight() <= 0) {
                continue;
            }
            if (!entry.group.exposedModels().isEmpty()) {
                models.addAll(entry.group.exposedModels());
                continue;
            }
            for (int member : entry.members) {
                CredentialSnapshot credential = entries[member].snapshot;
                if (!credential.enabled() || !credential.inPool() || !SelectionSteps.passesPlatformRule(credential)) {
                    continue;
                }
                if (credential.kind() == CredentialKind.OFFICIAL
                        || credential.modelMappings().isEmpty()) {
                    if (credential.platform() != null) {
                        models.addAll(credential.platform().baselineModels());
                    }
                    continue;
                }
                for (ModelMapping mapping : credential.modelMappings()) {
                    if (!mapping.isCatchAll()) {
                        models.add(mapping.from());
                    }
                }
            }
        }
        if (!key.allowedModels().isEmpty()) {
            models.removeIf(model -> !ModelPatterns.matchesAny(key.allowedModels(), model));
        }
        return List.copyOf(models);
    }

    // ---- package-private, for Router and GroupSelector -------------------------------------------

    GroupEntry groupEntry(String groupId) {
        return groups.get(groupId);
    }

    Collection<GroupEntry> groupEntries() {
        return groups.values();
    }

    CredentialEntry[] entries() {
        return entries;
    }

    int[] weights() {
        return weights;
    }

    private List<GroupSnapshot> groupSnapshots() {
        List<GroupSnapshot> all = new ArrayList<>(groups.size());
        for (GroupEntry entry : groups.values()) {
            all.add(entry.group);
        }
        return all;
    }
}
