package io.routegateway.core.select;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.state.ModelState;

/** One credential of a {@link PoolView}, with what step 5 reads on every request precomputed. */
final class CredentialEntry {

    final CredentialSnapshot snapshot;
    final String id;
    final int ordinal;
    /** The later of the account's {@code cooldown_until} and {@code next_retry_at}, or null. */
    final Instant accountCoolingUntil;
    /** Model rows by model key; null when the credential has none (the healthy common case). */
    private final Map<String, ModelState> rows;

    CredentialEntry(CredentialSnapshot snapshot, int ordinal) {
        this.snapshot = snapshot;
        this.id = snapshot.credentialId();
        this.ordinal = ordinal;
        this.accountCoolingUntil = snapshot.account().coolingUntil();
        if (snapshot.models().isEmpty()) {
            this.rows = null;
        } else {
            Map<String, ModelState> byKey = new HashMap<>();
            for (ModelState row : snapshot.models()) {
                byKey.put(row.modelKey(), row);
            }
            this.rows = byKey;
        }
    }

    /** The (this credential, model key) row, or null. */
    ModelState row(String modelKey) {
        return rows == null || modelKey == null ? null : rows.get(modelKey);
    }
}
