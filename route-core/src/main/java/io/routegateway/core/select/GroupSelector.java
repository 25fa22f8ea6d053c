package io.routegateway.core.select;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.model.ModelKeys;

/**
 * Group selection. Candidate groups meet all of: in the key's scope ({@code group_filtered}
 * otherwise), enabled ({@code group_disabled}), exposing the requested model ({@code
 * no_available_group} for that group), effective weight above 0 ({@code group_weight_zero}) —
 * checked in that order. A group exposes a model when its exposed list names it (exactly, or
 * through the {@code [1m]}-stripped name), or, with an empty list, when any credential of its pool
 * has a mapping that serves it (health ignored: a pool that maps the model but is all disabled or
 * cooling still exposes it, so the more specific pool code is reported). A request without a model
 * name skips the exposure check.
 *
 * <p>When no group qualifies the refusal is: {@code no_route_target} when the key authorizes no
 * group that exists; {@code no_available_group} when none of its groups exposes the model;
 * otherwise the reason of the groups that do expose it — {@code group_weight_zero} if one of them
 * is enabled (so only its weight stops it), else {@code group_disabled}.
 *
 * <p>Among candidates the choice is weighted ({@link GroupSnapshot#effectiveWeight()}: automatic =
 * the default weight 100), as a whole failover order: weighted random order without replacement,
 * so when a group has no working credential the gateway moves on to the next one.
 */
public final class GroupSelector {

    private GroupSelector() {}

    /**
     * Candidate groups in the key's order, or the refusal when there are none.
     *
     * @param refusal null when {@code groups} is non-empty
     */
    public record GroupCandidates(List<GroupSnapshot> groups, ReasonCode refusal, String message) {

        public GroupCandidates {
            groups = List.copyOf(groups);
        }
    }

    public static GroupCandidates candidates(PoolView view, AccessKeySnapshot key, String requestedModel) {
        return candidates(view, key, SelectionSteps.normalizeModel(requestedModel), null);
    }

    static GroupCandidates candidates(PoolView view, AccessKeySnapshot key, String model, TraceBuilder trace) {
        List<String> scope = key.groupIds();
        List<GroupSnapshot> kept = new ArrayList<>(scope.size());
        int found = 0;
        for (int i = 0; i < scope.size(); i++) {
            String groupId = scope.get(i);
            if (scope.subList(0, i).contains(groupId)) {
                continue;
            }
            GroupEntry entry = view.groupEntry(groupId);
            if (entry == null) {
                if (trace != null) {
                    trace.drop(groupId, null, ReasonCode.NO_ROUTE_TARGET, "the key names a group that does not exist");
                }
                continue;
            }
            found++;
            ReasonCode rejection = rejection(view, entry, model);
            if (rejection == null) {
                kept.add(entry.group);
                if (trace != null) {
                    trace.group(groupId, entry.group.name());
                }
            } else if (trace != null) {
                trace.drop(groupId, entry.group.name(), rejection, rejectionDetail(rejection, entry.group, model));
            }
        }
        if (trace != null) {
            for (GroupEntry entry : view.groupEntries()) {
                if (!trace.has(entry.group.groupId())) {
                    trace.drop(entry.group.groupId(), entry.group.name(), ReasonCode.GROUP_FILTERED, null);
                }
            }
        }
        if (!kept.isEmpty()) {
            return new GroupCandidates(kept, null, null);
        }
        ReasonCode refusal = found == 0 ? ReasonCode.NO_ROUTE_TARGET : refusal(view, scope, model);
        String message = refusal == ReasonCode.NO_ROUTE_TARGET || model == null
                ? refusal.meaning()
                : refusal.meaning() + ": " + model;
        return new GroupCandidates(List.of(), refusal, message);
    }

    /** The first failing group check in the spec's order (scope aside), or null for a candidate. */
    static ReasonCode rejection(PoolView view, GroupEntry entry, String model) {
        if (!entry.group.enabled()) {
            return ReasonCode.GROUP_DISABLED;
        }
        if (!exposes(view, entry, model)) {
            return ReasonCode.NO_AVAILABLE_GROUP;
        }
        if (entry.group.effectiveWeight() <= 0) {
            return ReasonCode.GROUP_WEIGHT_ZERO;
        }
        return null;
    }

    private static String rejectionDetail(ReasonCode rejection, GroupSnapshot group, String model) {
        if (rejection == ReasonCode.NO_AVAILABLE_GROUP) {
            return group.exposedModels().isEmpty()
                    ? "no credential of the pool serves " + model
                    : "model " + model + " is not in the exposed list";
        }
        return null;
    }

    private static ReasonCode refusal(PoolView view, List<String> scope, String model) {
        boolean anyExposes = false;
        boolean anyEnabled = false;
        for (String groupId : scope) {
            GroupEntry entry = view.groupEntry(groupId);
            if (entry != null && exposes(view, entry, model)) {
                anyExposes = true;
                anyEnabled |= entry.group.enabled();
            }
        }
        if (!anyExposes) {
            return ReasonCode.NO_AVAILABLE_GROUP;
        }
        return anyEnabled ? ReasonCode.GROUP_WEIGHT_ZERO : ReasonCode.GROUP_DISABLED;
    }

    /** Whether the group exposes {@code model} (null = no model name: always). */
    public static boolean exposes(PoolView view, GroupSnapshot group, String requestedModel) {
        GroupEntry entry = view.groupEntry(group.groupId());
        return entry != null && exposes(view, entry, SelectionSteps.normalizeModel(requestedModel));
    }

    static boolean exposes(PoolView view, GroupEntry entry, String model) {
        if (model == null) {
            return true;
        }
        List<String> exposed = entry.group.exposedModels();
        if (!exposed.isEmpty()) {
            return exposed.contains(model) || exposed.contains(ModelKeys.stripOneM(model));
        }
        return entry.candidates(view.entries(), model).servedByAnyMember;
    }

    /**
     * Weighted random order without replacement: each position is drawn with probability
     * proportional to effective weight among the groups not yet placed ({@code rng.nextLong(total)}
     * per draw; the last group takes no draw). Groups of weight 0 or less go last, in the given
     * order.
     */
    public static List<GroupSnapshot> failoverOrder(List<GroupSnapshot> candidates, RandomGenerator rng) {
        int n = candidates.size();
        if (n <= 1) {
            return List.copyOf(candidates);
        }
        List<GroupSnapshot> remaining = new ArrayList<>(candidates);
        List<GroupSnapshot> order = new ArrayList<>(n);
        while (remaining.size() > 1) {
            long total = 0;
            for (GroupSnapshot group : remaining) {
                total += Math.max(0, group.effectiveWeight());
            }
            if (total == 0) {
                break;
            }
            long r = rng.nextLong(total);
            for (int i = 0; i < remaining.size(); i++) {
                r -= Math.max(0, remaining.get(i).effectiveWeight());
                if (r < 0) {
                    order.add(remaining.remove(i));
                    break;
                }
            }
        }
        order.addAll(remaining);
        return List.copyOf(order);
    }
}
