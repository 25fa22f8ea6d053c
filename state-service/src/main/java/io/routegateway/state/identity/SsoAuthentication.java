package io.routegateway.state.identity;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;

import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.oidc.TenantIdentityProvider;
import io.quarkus.oidc.runtime.OidcJwtCallerPrincipal;
import io.quarkus.runtime.StartupEvent;
import io.routegateway.core.identity.SsoClaims;
import io.routegateway.state.config.StateConfig;
import io.smallrye.mutiny.Uni;
import org.jboss.logging.Logger;
import org.jose4j.jwt.JwtClaims;

/**
 * Single sign-on for the admin API ({@code state.oidc.*}): a bearer that looks like a JWT is handed
 * to Quarkus OIDC, which checks it against the issuer (signature by the issuer's published keys,
 * {@code alg} among the key's, issuer, audience, expiry), and the verified claims become a
 * principal through {@link SsoClaims} (roles/groups claim, team claim or group convention). Off
 * unless {@code state.oidc.enabled}; {@link AdminAuthentication} asks only for bearers that are
 * neither the break-glass token nor an API token. Why a token failed is logged at debug level, never
 * the token, and the caller always gets the same 401.
 */
@ApplicationScoped
public class SsoAuthentication {

    private static final Logger LOG = Logger.getLogger(SsoAuthentication.class);

    /** Three base64url parts: the only shape handed to the verifier (an opaque value is refused at once). */
    private static final Pattern JWT =
            Pattern.compile("[A-Za-z0-9_-]{2,8192}\\.[A-Za-z0-9_-]{2,16384}\\.[A-Za-z0-9_-]{0,8192}");

    /** The outcome: a mapped principal, a verified token that grants nothing (403), or an invalid one (401). */
    record Result(SsoClaims.Mapping mapping, boolean verified) {}

    private final StateConfig.Oidc config;
    private final Instance<TenantIdentityProvider> verifier;

    SsoAuthentication(StateConfig config, Instance<TenantIdentityProvider> verifier) {
        this.config = config.oidc();
        this.verifier = verifier;
    }

    void checkConfiguration(@Observes StartupEvent started) {
        if (config.enabled() && config.issuer().isEmpty()) {
            throw new IllegalStateException("state.oidc.enabled needs state.oidc.issuer (STATE_OIDC_ISSUER)");
        }
    }

    public boolean enabled() {
        return config.enabled();
    }

    /** Whether the bearer is for this verifier: SSO on and a JWT's shape. */
    boolean accepts(String bearer) {
        return config.enabled() && JWT.matcher(bearer).matches();
    }

    Uni<Result> authenticate(String bearer) {
        return verifier.get()
                .authenticate(new AccessTokenCredential(bearer))
                .map(identity -> {
                    if (!(identity.getPrincipal() instanceof OidcJwtCallerPrincipal jwt)) {
                        return new Result(null, false);
                    }
                    return new Result(map(jwt.getClaims()), true);
                })
                .onFailure()
                .recoverWithItem(failure -> {
                    LOG.debugf("SSO token refused: %s", failure.getMessage());
                    return new Result(null, false);
                });
    }

    SsoClaims.Mapping map(JwtClaims claims) {
        List<String> subjects = values(claims.getClaimsMap(), config.subjectClaim());
        String subject = subjects.size() == 1 ? subjects.get(0) : null;
        if (subject == null) {
            List<String> sub = values(claims.getClaimsMap(), "sub");
            subject = sub.size() == 1 ? sub.get(0) : null;
        }
        return SsoClaims.map(
                subject,
                values(claims.getClaimsMap(), config.rolesClaim()),
                values(claims.getClaimsMap(), config.teamClaim()),
                config.rolePrefix().orElse(""),
                config.teamGroupPrefix().orElse(""));
    }

    /**
     * The string values at a claim path ({@code a/b} reaches into objects): a string is one value, an
     * array its string items; anything else, or a missing claim, none.
     */
    static List<String> values(Map<String, Object> claims, String path) {
        Object node = claims;
        for (String part : path.split("/")) {
            if (!(node instanceof Map<?, ?> object)) {
                return List.of();
            }
            node = object.get(part);
        }
        List<String> out = new ArrayList<>();
        if (node instanceof String text) {
            out.add(text);
        } else if (node instanceof Collection<?> items) {
            for (Object item : items) {
                if (item instanceof String text) {
                    out.add(text);
                }
            }
        }
        return out;
    }
}
