package io.routegateway.core.testing;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.OutcomePosition;
import io.routegateway.core.headers.CredentialHeaders;
import io.routegateway.core.limits.CredentialLimits;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.oauth.OAuthStatus;
import io.routegateway.core.policy.FailurePolicy;
import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.state.ModelState;
import io.routegateway.core.state.ModelStatus;

/**
 * The one test builder of {@link CredentialSnapshot}s (route-core's test-jar, used by route-core's
 * and the gateway's tests). Defaults: a healthy, enabled OpenAI api key in the pool, version 1, no
 * groups, auto weight; each module's fixtures set their own base URL, groups and clock.
 */
public final class CredentialBuilder {

    private final String id;
    private String name;
    private Platform platform = Platform.OPENAI;
    private CredentialKind kind = CredentialKind.API;
    private String baseUrl;
    private String encryptedSecret = "enc";
    private String secret;
    private final List<ModelMapping> mappings = new ArrayList<>();
    private FailurePolicy policy;
    private boolean enabled = true;
    private boolean archived;
    private boolean inPool = true;
    private int priority;
    private WeightMode weightMode = WeightMode.AUTO;
    private int weight;
    private Long quota;
    private List<String> groups = List.of();
    private AccountStatus status = AccountStatus.OK;
    private Instant cooldownUntil;
    private Instant nextRetryAt;
    private AccountState account;
    private final List<ModelState> rows = new ArrayList<>();
    private long version = 1;
    private Instant publishedAt;
    private Instant rowsAt;
    private OAuthStatus oauth;
    private Instant outcomeSentAt;
    private OutcomePosition outcomePosition;
    private CredentialLimits limits = CredentialLimits.NONE;
    private CredentialHeaders upstreamHeaders = CredentialHeaders.NONE;

    private CredentialBuilder(String id) {
        this.id = id;
        this.name = "name-" + id;
        this.baseUrl = "https://relay.example/" + id;
    }

    public static CredentialBuilder credential(String id) {
        return new CredentialBuilder(id);
    }

    public String id() {
        return id;
    }

    public CredentialBuilder maps(String from, String to) {
        mappings.add(new ModelMapping(from, to));
        return this;
    }

    /** Serves {@code models} under the same upstream names. */
    public CredentialBuilder serves(String... models) {
        for (String model : models) {
            mappings.add(new ModelMapping(model, model));
        }
        return this;
    }

    public CredentialBuilder platform(Platform value) {
        this.platform = value;
        return this;
    }

    public CredentialBuilder kind(CredentialKind value) {
        this.kind = value;
        return this;
    }

    public CredentialBuilder official() {
        this.kind = CredentialKind.OFFICIAL;
        return this;
    }

    public CredentialBuilder official(Platform onPlatform) {
        this.platform = onPlatform;
        return official();
    }

    public CredentialBuilder baseUrl(String value) {
        this.baseUrl = value;
        return this;
    }

    /** The clear-text secret {@link #build(SecretBox)} seals to this credential. */
    public CredentialBuilder secret(String value) {
        this.secret = value;
        return this;
    }

    public CredentialBuilder policy(FailurePolicy value) {
        this.policy = value;
        return this;
    }

    /** A policy with 10 s escalation and error status on. */
    public CredentialBuilder policy(int retryCount, int retryIntervalMs, boolean cooldown, int cooldownSeconds) {
        return policy(new FailurePolicy(retryCount, retryIntervalMs, 10, cooldown, cooldownSeconds, true));
    }

    public CredentialBuilder disabled() {
        this.enabled = false;
        return this;
    }

    public CredentialBuilder archived() {
        this.archived = true;
        return this;
    }

    public CredentialBuilder notInPool() {
        this.inPool = false;
        return this;
    }

    public CredentialBuilder priority(int value) {
        this.priority = value;
        return this;
    }

    public CredentialBuilder weight(int value) {
        this.weight = value;
        return this;
    }

    public CredentialBuilder manualWeight(int value) {
        this.weightMode = WeightMode.MANUAL;
        this.weight = value;
        return this;
    }

    public CredentialBuilder quota(Long value) {
        this.quota = value;
        return this;
    }

    public CredentialBuilder groups(String... ids) {
        this.groups = List.of(ids);
        return this;
    }

    public CredentialBuilder status(AccountStatus value) {
        this.status = value;
        return this;
    }

    /** Account-level cooldown: both timestamps, as the spec writes them. */
    public CredentialBuilder accountCooling(Instant until) {
        this.cooldownUntil = until;
        this.nextRetryAt = until;
        return this;
    }

    public CredentialBuilder nextRetryAt(Instant at) {
        this.nextRetryAt = at;
        return this;
    }

    public CredentialBuilder cooldownUntil(Instant at) {
        this.cooldownUntil = at;
        return this;
    }

    /** The whole account row; replaces {@link #status}, {@link #nextRetryAt} and {@link #cooldownUntil}. */
    public CredentialBuilder account(AccountState value) {
        this.account = value;
        return this;
    }

    /** When the rows made by {@link #modelCooling}, {@link #paused} and {@link #errored} were written. */
    public CredentialBuilder rowsAt(Instant at) {
        this.rowsAt = at;
        return this;
    }

    public CredentialBuilder modelCooling(String modelKey, Instant until) {
        Instant at = rowsAt();
        rows.add(new ModelState(modelKey, ModelStatus.OK, 1, until, 1, null, "upstream_status", "429", null, at, at));
        return this;
    }

    public CredentialBuilder paused(String modelKey) {
        rows.add(ModelState.created(modelKey, ModelStatus.PAUSED, rowsAt()));
        return this;
    }

    public CredentialBuilder errored(String modelKey) {
        rows.add(ModelState.created(modelKey, ModelStatus.ERROR, rowsAt()));
        return this;
    }

    public CredentialBuilder row(ModelState row) {
        rows.add(row);
        return this;
    }

    /** Same as {@link #row}. */
    public CredentialBuilder model(ModelState row) {
        return row(row);
    }

    public CredentialBuilder version(long value) {
        this.version = value;
        return this;
    }

    public CredentialBuilder publishedAt(Instant at) {
        this.publishedAt = at;
        return this;
    }

    /** The OAuth status of an OAuth-managed official credential (null: none, the default). */
    /** The send time of the outcome this version answers (null by default: not caused by one). */
    public CredentialBuilder outcomeSentAt(Instant value) {
        this.outcomeSentAt = value;
        return this;
    }

    /** The outcome record this version reflects (null by default: none). */
    public CredentialBuilder outcomePosition(OutcomePosition value) {
        this.outcomePosition = value;
        return this;
    }

    /** What the credential itself allows (its relay's limits). */
    public CredentialBuilder upstreamHeaders(CredentialHeaders value) {
        this.upstreamHeaders = value;
        return this;
    }

    public CredentialBuilder limits(CredentialLimits value) {
        limits = value;
        return this;
    }

    public CredentialBuilder oauth(OAuthStatus value) {
        this.oauth = value;
        return this;
    }

    /** The snapshot with the sealed-secret placeholder {@code enc}. */
    public CredentialSnapshot build() {
        return snapshot(encryptedSecret);
    }

    /** The snapshot with {@link #secret(String)} sealed by {@code box} to this id, platform and base URL. */
    public CredentialSnapshot build(SecretBox box) {
        if (secret == null) {
            throw new IllegalStateException("no secret to seal: call secret(...) first");
        }
        return snapshot(box.seal(new SecretBox.Binding(id, platform.wire(), baseUrl), secret));
    }

    private CredentialSnapshot snapshot(String sealed) {
        AccountState accountRow = account != null
                ? account
                : new AccountState(status, 0, nextRetryAt, cooldownUntil, null, null, null, 0, null);
        return new CredentialSnapshot(
                id,
                version,
                name,
                platform,
                kind,
                baseUrl,
                sealed,
                mappings,
                policy,
                enabled,
                archived,
                inPool,
                priority,
                weightMode,
                weight,
                quota,
                groups,
                accountRow,
                rows,
                publishedAt == null ? Instant.now() : publishedAt,
                oauth,
                outcomeSentAt,
                outcomePosition,
                limits,
                upstreamHeaders);
    }

    private Instant rowsAt() {
        return rowsAt == null ? Instant.now() : rowsAt;
    }
}
