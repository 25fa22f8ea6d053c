package io.routegateway.state.pool;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.state.repository.AccessKeyEntity;
import io.routegateway.state.repository.AccessKeyRepository;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialRepository;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.smallrye.mutiny.Uni;

/**
 * Locks several rows of one table ({@code SELECT ... FOR UPDATE}) in ascending id order, so two admin
 * writes touching overlapping sets never deadlock, and event application (one credential lock at a
 * time) always waits rather than interleaves.
 */
@ApplicationScoped
public class RowLocks {

    private final CredentialRepository credentials;
    private final AccessKeyRepository accessKeys;

    RowLocks(CredentialRepository credentials, AccessKeyRepository accessKeys) {
        this.credentials = credentials;
        this.accessKeys = accessKeys;
    }

    /** The locked credentials in id order; fails with {@code validation.credential_ids} for unknown ids. */
    public Uni<List<CredentialEntity>> credentials(Iterable<String> ids) {
        List<String> missing = new ArrayList<>();
        List<CredentialEntity> locked = new ArrayList<>();
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (String id : new TreeSet<String>(toList(ids))) {
            chain = chain.flatMap(ignored -> credentials.findForUpdate(id).invoke(row -> {
                        if (row == null) {
                            missing.add(id);
                        } else {
                            locked.add(row);
                        }
                    }))
                    .replaceWithVoid();
        }
        return chain.map(ignored -> {
            if (!missing.isEmpty()) {
                throw AdminException.invalid(
                        AdminCodes.CREDENTIAL_IDS,
                        "unknown credential ids: " + missing.subList(0, Math.min(10, missing.size()))
                                + (missing.size() > 10 ? " and " + (missing.size() - 10) + " more" : ""));
            }
            return locked;
        });
    }

    /** The locked access keys in id order; ids that vanished meanwhile are skipped. */
    public Uni<List<AccessKeyEntity>> accessKeys(Iterable<String> ids) {
        List<AccessKeyEntity> locked = new ArrayList<>();
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (String id : new TreeSet<String>(toList(ids))) {
            chain = chain.flatMap(ignored -> accessKeys.findForUpdate(id).invoke(row -> {
                        if (row != null) {
                            locked.add(row);
                        }
                    }))
                    .replaceWithVoid();
        }
        return chain.map(ignored -> locked);
    }

    private static List<String> toList(Iterable<String> ids) {
        List<String> out = new ArrayList<>();
        ids.forEach(out::add);
        return out;
    }
}
