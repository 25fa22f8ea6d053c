package io.routegateway.core.select;

import java.util.concurrent.ConcurrentHashMap;

import io.routegateway.core.event.GroupSnapshot;

/**
 * One group of a {@link PoolView}: its snapshot, its members (credential ordinals in original
 * order) and the lazily filled model → {@link CandidateSet} index.
 *
 * <p>The index is a memo, not state: every value is a pure function of the members' routing shape,
 * so views that share that shape share the index. It is bounded: past {@link #MAX_CACHED_MODELS}
 * distinct requested names (catch-all mappings accept any name a client sends) sets are computed
 * per request instead of cached.
 */
final class GroupEntry {

    static final int MAX_CACHED_MODELS = 1024;
    private static final String NO_MODEL = "\u0000no-model";

    final GroupSnapshot group;
    final int[] members;
    private final ConcurrentHashMap<String, CandidateSet> byModel;

    GroupEntry(GroupSnapshot group, int[] members) {
        this(group, members, new ConcurrentHashMap<>());
    }

    private GroupEntry(GroupSnapshot group, int[] members, ConcurrentHashMap<String, CandidateSet> byModel) {
        this.group = group;
        this.members = members;
        this.byModel = byModel;
    }

    /** The same members and index under a changed group snapshot (members depend on credentials only). */
    GroupEntry withGroup(GroupSnapshot next) {
        return new GroupEntry(next, members, byModel);
    }

    /** Steps 1–3 for {@code model} (null = no model name), from the index when present. */
    CandidateSet candidates(CredentialEntry[] entries, String model) {
        String key = model == null ? NO_MODEL : model;
        CandidateSet cached = byModel.get(key);
        if (cached != null) {
            return cached;
        }
        CandidateSet built = CandidateSet.build(entries, members, model);
        if (byModel.size() < MAX_CACHED_MODELS) {
            CandidateSet raced = byModel.putIfAbsent(key, built);
            return raced == null ? built : raced;
        }
        return built;
    }
}
