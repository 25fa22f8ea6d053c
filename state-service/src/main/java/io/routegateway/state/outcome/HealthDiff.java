package io.routegateway.state.outcome;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.core.state.ModelState;

/**
 * What an applied event changes in the database: the account columns (if they differ), the model
 * rows to insert or update, and the model rows to delete. Rows that are equal before and after are
 * not written at all.
 *
 * @param account the account state to write, or null when the account columns are unchanged
 * @param upserts model rows that are new or changed
 * @param deletions model keys whose rows go away
 */
public record HealthDiff(AccountState account, List<ModelState> upserts, List<String> deletions) {

    public HealthDiff {
        upserts = List.copyOf(upserts);
        deletions = List.copyOf(deletions);
    }

    public static HealthDiff between(CredentialHealth before, CredentialHealth after) {
        AccountState account = before.account().equals(after.account()) ? null : after.account();
        List<ModelState> upserts = new ArrayList<>();
        for (ModelState row : after.models().values()) {
            if (!Objects.equals(before.models().get(row.modelKey()), row)) {
                upserts.add(row);
            }
        }
        List<String> deletions = new ArrayList<>();
        for (String key : before.models().keySet()) {
            if (!after.models().containsKey(key)) {
                deletions.add(key);
            }
        }
        return new HealthDiff(account, upserts, deletions);
    }

    /** Whether the event changed anything that is stored (and so published). */
    public boolean changesState() {
        return account != null || !upserts.isEmpty() || !deletions.isEmpty();
    }
}
