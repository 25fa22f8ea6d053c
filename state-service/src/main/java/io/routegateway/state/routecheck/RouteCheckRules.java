package io.routegateway.state.routecheck;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.bridge.BridgePlan;
import io.routegateway.core.bridge.EmbeddingsRule;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.TeamSnapshot;
import io.routegateway.core.limits.Limits;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.Affinity;
import io.routegateway.core.select.AffinityKey;
import io.routegateway.core.select.AffinityTable;
import io.routegateway.core.select.FullCredentials;
import io.routegateway.core.select.PoolView;
import io.routegateway.core.select.ProtocolRule;
import io.routegateway.core.select.RouteRequest;
import io.routegateway.core.select.Router;
import io.routegateway.state.spend.SpendRules;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.Inputs;

/**
 * The route check without I/O: {@link #check} refuses an input that names no key or two, no
 * protocol, an unknown one or an unknown operation before anything is read; {@link #route} runs
 * route-core's {@link Router#route} with the trace on over the view built from the stored pool, and
 * refuses what only the view can tell (an unknown key id, a remembered credential or group that does
 * not fit); {@link #admission} adds what the gateway's admission would decide from the stored limits
 * and spend. {@link RouteCheckService} reads the pool, the key's team and spend, and passes the time.
 */
public final class RouteCheckRules {

    private RouteCheckRules() {}

    /**
     * An input that passed the checks made before the pool is read.
     *
     * @param byId the key is named by {@code access_key_id} (else by the plaintext {@code access_key})
     * @param embeddings {@code operation: embeddings}
     * @param protocol the request's protocol ({@code openai_chat} for embeddings that name none)
     */
    public record Checked(RouteCheckInput input, boolean byId, boolean embeddings, Protocol protocol) {}

    /** Exactly one key, then the operation, then the protocol: the first bad one is refused. */
    public static Checked check(RouteCheckInput input) {
        boolean byId = input.accessKeyId() != null && !input.accessKeyId().isBlank();
        boolean byKey = input.accessKey() != null && !input.accessKey().isBlank();
        if (byId == byKey) {
            throw AdminException.invalid(AdminCodes.ACCESS_KEY, "send exactly one of access_key_id and access_key");
        }
        boolean embeddings = embeddings(input.operation());
        if (input.protocol() == null && !embeddings) {
            throw AdminException.invalid(AdminCodes.PROTOCOL, "protocol is required");
        }
        Protocol protocol = input.protocol() == null
                ? Protocol.OPENAI_CHAT
                : Inputs.protocols(List.of(input.protocol())).get(0);
        if (embeddings && protocol != Protocol.OPENAI_CHAT) {
            throw AdminException.invalid(AdminCodes.PROTOCOL, "embeddings are served on openai_chat only");
        }
        return new Checked(input, byId, embeddings, protocol);
    }

    /**
     * The key the check is about: by id (404 when unknown) or by the plaintext key (null when no key
     * has it: the route check then reads {@code invalid_access_key}).
     */
    public static AccessKeySnapshot key(Checked checked, PoolView view) {
        RouteCheckInput input = checked.input();
        if (checked.byId()) {
            String accessKeyId = Inputs.refId(input.accessKeyId(), AdminCodes.ACCESS_KEY);
            return view.accessKey(accessKeyId).orElseThrow(() -> AdminException.notFound("access key", accessKeyId));
        }
        return view.authenticate(input.accessKey()).orElse(null);
    }

    /**
     * A team role checks its own team's keys only ({@code onlyTeam}: its team; null: any key): a key
     * of another team, or of none, is answered as a key that does not exist: by id the very 404 of
     * an unknown id, by plaintext one 404 for an unknown key and another team's alike (the plaintext
     * never echoed).
     */
    public static void requireTeamKey(Checked checked, AccessKeySnapshot key, String onlyTeam) {
        if (onlyTeam == null || (key != null && onlyTeam.equals(key.teamId()))) {
            return;
        }
        if (checked.byId()) {
            throw AdminException.notFound(
                    "access key", Inputs.refId(checked.input().accessKeyId(), AdminCodes.ACCESS_KEY));
        }
        throw new AdminException(404, AdminCodes.NOT_FOUND, "no access key of the team has this key");
    }

    /** The gateway's routing decision for the checked input over {@code view}, with its trace. */
    public static RouteCheckView route(Checked checked, PoolView view, Instant now) {
        return route(checked, view, FullCredentials.NONE, now);
    }

    /**
     * The gateway's routing decision, skipping the credentials {@code full} names ({@code
     * credential_full}) as a gateway does.
     */
    public static RouteCheckView route(Checked checked, PoolView view, FullCredentials full, Instant now) {
        RouteCheckInput input = checked.input();
        Protocol protocol = checked.protocol();
        boolean embeddings = checked.embeddings();
        AccessKeySnapshot key = key(checked, view);
        AffinityKey affinityKey =
                key == null ? null : Affinity.key(key.accessKeyId(), protocol, prefix(input, protocol));
        // the gateway's rule: native, or through a bridge when the conversion expresses the body
        // (without a body every bridge is assumed to)
        JsonNode requestBody = input.body() != null && input.body().isObject() ? input.body() : null;
        ProtocolRule rule = embeddings
                ? new EmbeddingsRule(requestBody, Boolean.TRUE.equals(input.nativeOnly()))
                : BridgePlan.of(
                        protocol,
                        requestBody,
                        protocol == Protocol.GEMINI ? input.model() : null,
                        requestBody != null && requestBody.path("stream").asBoolean(false),
                        input.model(),
                        Boolean.TRUE.equals(input.nativeOnly()));
        // the gateway keeps no affinity for embeddings
        RouteRequest request = new RouteRequest(key, protocol, input.model(), embeddings ? null : affinityKey, rule);
        AffinityTable affinity = remembered(view, key, affinityKey, input, now);
        Set<String> excluded = new HashSet<>(
                Inputs.ids(input.excludedCredentialIds(), AdminCodes.CREDENTIAL_IDS, Inputs.MAX_CREDENTIAL_IDS));
        SplittableRandom rng = input.seed() == null ? new SplittableRandom() : new SplittableRandom(input.seed());
        return RouteCheckView.of(
                Router.route(view, request, excluded, true, full, affinity, rng, now, true), hex(affinityKey), rule);
    }

    /**
     * What the gateway's admission would do with the key's request now, from the stored limits and
     * spend, on top of the routing decision {@code routed}: the key's team, its limits, its team's,
     * the effective ones (field by field the tighter, {@link Limits#tighter}), and each budget with
     * its window's settled spend. A spent budget (the key's or its team's) refuses the request with
     * {@code budget_exceeded} (429) before routing, unless the key itself is refused first (401).
     * Rate, token and concurrency limits depend on the live traffic the gateways count together and
     * are only listed.
     *
     * @param team the key's team, null when it has none (or it vanished)
     * @param keySpend the key's current window, null when it has no budget
     * @param teamSpend the team's current window, null when it has no budget
     */
    public static RouteCheckView admission(
            RouteCheckView routed,
            AccessKeySnapshot key,
            TeamSnapshot team,
            SpendRules.Totals keySpend,
            SpendRules.Totals teamSpend) {
        Limits teamLimits = team == null ? null : team.limits();
        List<RouteCheckView.BudgetCheck> budgets = new ArrayList<>();
        if (keySpend != null) {
            budgets.add(budget(key.limits(), keySpend));
        }
        if (teamSpend != null && teamLimits != null) {
            budgets.add(budget(teamLimits, teamSpend));
        }
        List<RouteCheckView.BudgetCheck> spent =
                budgets.stream().filter(RouteCheckView.BudgetCheck::exceeded).toList();
        boolean limited = !key.limits().isNone() || (teamLimits != null && !teamLimits.isNone());
        // refused until every spent budget resets; a lifetime budget never does
        Instant resetAt = spent.stream().anyMatch(budget -> budget.budgetResetAt() == null)
                ? null
                : spent.stream()
                        .map(RouteCheckView.BudgetCheck::budgetResetAt)
                        .max(Instant::compareTo)
                        .orElse(null);
        String decision = !limited ? "not_limited" : spent.isEmpty() ? "admitted" : "refused";
        RouteCheckView.AdmissionCheck admission = new RouteCheckView.AdmissionCheck(
                key.teamId(),
                team == null ? null : team.name(),
                key.limits(),
                teamLimits,
                key.limits().tighter(teamLimits),
                budgets,
                decision,
                spent.isEmpty() ? null : SpendRules.BUDGET_EXCEEDED,
                spent.isEmpty() ? null : resetAt,
                limited ? RouteCheckView.AdmissionCheck.LIVE_LIMITS_NOTE : null);
        boolean keyRefused = routed.httpStatus() != null && routed.httpStatus() == 401;
        return spent.isEmpty() || keyRefused ? routed.withAdmission(admission) : routed.refusedByBudget(admission);
    }

    private static RouteCheckView.BudgetCheck budget(Limits limits, SpendRules.Totals totals) {
        return new RouteCheckView.BudgetCheck(
                totals.subject().kind(),
                totals.subject().id(),
                limits.maxBudget(),
                limits.budgetDuration() == null ? null : limits.budgetDuration().wire(),
                SpendRules.usd(totals.spendMicros()),
                totals.window().start(),
                totals.window().end(),
                SpendRules.exceeded(totals.spendMicros(), limits));
    }

    private static boolean embeddings(String operation) {
        if (operation == null || operation.equals("generate")) {
            return false;
        }
        if (operation.equals("embeddings")) {
            return true;
        }
        throw AdminException.invalid(AdminCodes.QUERY, "operation must be generate or embeddings");
    }

    /** The affinity prefix: the prompt (cut to {@link Affinity#PREFIX_CHARS}), else the body's. */
    static String prefix(RouteCheckInput input, Protocol protocol) {
        if (input.prompt() != null && !input.prompt().isBlank()) {
            String prompt = input.prompt();
            return prompt.length() > Affinity.PREFIX_CHARS ? prompt.substring(0, Affinity.PREFIX_CHARS) : prompt;
        }
        return input.body() == null ? null : Affinity.promptPrefix(protocol, input.body());
    }

    /** An affinity table holding the one simulated memory, or null when none is simulated. */
    private static AffinityTable remembered(
            PoolView view, AccessKeySnapshot key, AffinityKey affinityKey, RouteCheckInput input, Instant now) {
        String credentialId = Inputs.refId(input.rememberedCredentialId(), AdminCodes.CREDENTIAL_IDS);
        if (credentialId == null) {
            return null;
        }
        CredentialSnapshot credential = view.credential(credentialId)
                .orElseThrow(() -> AdminException.invalid(
                        AdminCodes.CREDENTIAL_IDS, "unknown remembered_credential_id " + credentialId));
        if (affinityKey == null) {
            throw AdminException.invalid(
                    AdminCodes.QUERY, "remembered_credential_id needs a prompt (or body) and a known access key");
        }
        String groupId = Inputs.refId(input.rememberedGroupId(), AdminCodes.GROUP_IDS);
        if (groupId == null) {
            groupId = key.groupIds().stream()
                    .filter(credential.groupIds()::contains)
                    .findFirst()
                    .orElseThrow(() -> AdminException.invalid(
                            AdminCodes.GROUP_IDS, "no group of the key's scope holds credential " + credentialId));
        }
        AffinityTable table = new AffinityTable();
        table.remember(affinityKey, groupId, credential.credentialId(), now);
        return table;
    }

    private static String hex(AffinityKey key) {
        return key == null
                ? null
                : HexFormat.of().toHexDigits(key.high()) + HexFormat.of().toHexDigits(key.low());
    }
}
