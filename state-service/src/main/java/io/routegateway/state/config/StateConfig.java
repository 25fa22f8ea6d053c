package io.routegateway.state.config;

import java.time.Duration;
import java.util.Optional;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of state-service, under {@code state.*}. */
@ConfigMapping(prefix = "state")
public interface StateConfig {

    /** The admin API. */
    Admin admin();

    /**
     * Base URL of recovery-service ({@code STATE_RECOVERY_URL}): the admin API's credential test
     * delegates to its {@code POST /recovery/v1/credentials/{id}/test}.
     */
    @WithDefault("http://127.0.0.1:8082")
    @Pattern(regexp = "https?://\\S+", message = "must be an http(s) URL")
    String recoveryUrl();

    /** The raw request logs ({@code state.request-logs.*}), kept in daily partitions. */
    RequestLogs requestLogs();

    /** The per-minute, hourly and daily usage rollups ({@code state.usage-rollups.*}). */
    UsageRollups usageRollups();

    /** The audit log of admin writes ({@code state.audit.*}). */
    Audit audit();

    /** The spend snapshots on {@code route.spend} ({@code state.spend.*}). */
    Spend spend();

    interface Spend {

        /**
         * A budgeted key's or team's {@code spend.v1} snapshot leaves at most once per this interval,
         * unless a usage batch took it over its budget (then at once); one held back leaves when the
         * interval has passed, with the window's totals then ({@code STATE_SPEND_PUBLISH_INTERVAL}).
         * Between two snapshots the gateways add the costs of the leases closed since the last one's
         * {@code as_of}. 0 publishes one per usage batch that changed the subject.
         */
        @WithDefault("1s")
        Duration publishInterval();
    }

    /** Single sign-on with OpenID Connect for the admin API and the console ({@code state.oidc.*}). */
    Oidc oidc();

    interface Oidc {

        /**
         * Whether admin API bearer tokens may be access tokens of the issuer ({@code STATE_OIDC_ENABLED});
         * off by default. The break-glass token and API tokens work either way.
         */
        @WithDefault("false")
        boolean enabled();

        /**
         * The issuer URL ({@code STATE_OIDC_ISSUER}, e.g. {@code https://sso.example.com/realms/acme}):
         * its discovery document names the keys; a token of any other issuer is refused.
         */
        Optional<@Pattern(regexp = "https?://\\S+", message = "must be an http(s) URL") String> issuer();

        /** The service's client id at the issuer ({@code STATE_OIDC_CLIENT_ID}); tokens must name it in {@code aud}. */
        @WithDefault("route-gateway")
        String clientId();

        /** The client secret ({@code STATE_OIDC_CLIENT_SECRET}), used only to introspect opaque tokens. */
        Optional<String> clientSecret();

        /**
         * The audience a token must carry ({@code STATE_OIDC_AUDIENCE}); the client id when unset.
         */
        Optional<String> audience();

        /**
         * The public client the console signs in with (authorization code with PKCE, {@code
         * STATE_OIDC_CONSOLE_CLIENT_ID}); the client id when unset.
         */
        Optional<String> consoleClientId();

        /** Scopes the console asks for ({@code STATE_OIDC_CONSOLE_SCOPES}). */
        @WithDefault("openid profile email")
        String consoleScopes();

        /**
         * The claim carrying roles or groups ({@code STATE_OIDC_ROLES_CLAIM}); a path with {@code /}
         * reaches into nested objects (Keycloak's realm roles: {@code realm_access/roles}).
         */
        @WithDefault("groups")
        String rolesClaim();

        /** Prefix of a roles value before the role name ({@code STATE_OIDC_ROLE_PREFIX}, e.g. {@code route-}). */
        Optional<String> rolePrefix();

        /** The claim carrying a team role's team id ({@code STATE_OIDC_TEAM_CLAIM}). */
        @WithDefault("team_id")
        String teamClaim();

        /**
         * Group convention for the team ({@code STATE_OIDC_TEAM_GROUP_PREFIX}, e.g. {@code team:}):
         * without a team claim, the roles value {@code <prefix><team id>} names it; unset, no convention.
         */
        Optional<String> teamGroupPrefix();

        /** The claim recorded as the subject ({@code STATE_OIDC_SUBJECT_CLAIM}); {@code sub} when the token lacks it. */
        @WithDefault("preferred_username")
        String subjectClaim();
    }

    interface Audit {

        /** How long audit entries are kept ({@code STATE_AUDIT_RETENTION}). */
        @WithDefault("400d")
        Duration retention();

        /** How often old entries are pruned (a Quarkus scheduler period, {@code off} disables it). */
        @WithDefault("1h")
        String pruneEvery();
    }

    interface RequestLogs {

        /**
         * How long raw request logs are kept ({@code STATE_REQUEST_LOGS_RETENTION}, at least a day): a
         * day's partition is dropped once its whole day is older than this.
         */
        @WithDefault("30d")
        Duration retention();

        /** How many days after today have their partitions ready ({@code 0..366}). */
        @WithDefault("3")
        @Min(0)
        @Max(366)
        int daysAhead();

        /**
         * How often the maintenance job runs ({@code usage/LogMaintenance}; a Quarkus scheduler
         * period, {@code off} disables it).
         */
        @WithDefault("10m")
        String maintenanceEvery();
    }

    interface UsageRollups {

        /** How long the per-minute rollups are kept ({@code STATE_USAGE_ROLLUPS_RETENTION}). */
        @WithDefault("400d")
        Duration retention();

        /**
         * How long the hourly rollups are kept ({@code STATE_USAGE_ROLLUPS_HOURLY_RETENTION}). Stats
         * read a range's ragged hours from them and its ragged minutes from the per-minute level, so
         * ranges older than a level's retention lose those edges: keep minute ≤ hourly ≤ daily.
         */
        @WithDefault("400d")
        Duration hourlyRetention();

        /** How long the daily rollups are kept ({@code STATE_USAGE_ROLLUPS_DAILY_RETENTION}). */
        @WithDefault("800d")
        Duration dailyRetention();
    }

    interface Admin {

        /**
         * The bootstrap (break-glass) admin token ({@code STATE_ADMIN_TOKEN}). Required:
         * only the {@code dev} and {@code test} profiles have a local default.
         */
        @Size(min = 16, message = "must be at least 16 characters")
        String token();

        /**
         * Whether the bootstrap token is accepted at all ({@code STATE_ADMIN_BREAK_GLASS}): it is the
         * break-glass admin, for the first API token and for emergencies. Once automation and people
         * have their own tokens, turn it off; the token setting then authenticates nothing.
         */
        @WithDefault("true")
        boolean breakGlass();

        /**
         * Failed admin sign-ins counted per source address ({@code state.admin.sign-in-throttle.*}):
         * a source that fails too often is answered 429 for a while, a correct token included.
         */
        SignInThrottle signInThrottle();
    }

    interface SignInThrottle {

        /** Whether failed admin sign-ins are throttled at all ({@code STATE_ADMIN_SIGN_IN_THROTTLE_ENABLED}). */
        @WithDefault("true")
        boolean enabled();

        /** Failures from one source within {@link #window()} that start its lockout. */
        @WithDefault("10")
        @Min(1)
        int maxFailures();

        /** How long failures are counted together, from a source's first failure. */
        @WithDefault("1m")
        Duration window();

        /** How long a source that reached {@link #maxFailures()} is answered 429. */
        @WithDefault("5m")
        Duration lockout();

        /** Most sources remembered (least recently seen forgotten first): bounds the table's memory. */
        @WithDefault("10000")
        @Min(1)
        int maxSources();
    }
}
