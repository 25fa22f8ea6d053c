package io.routegateway.core.event;

import java.util.List;

import io.routegateway.core.state.AccountState;
import io.routegateway.core.text.StorableText;

/**
 * The edge of every consumer that stores what it reads: a record from {@code route.usage} or
 * {@code route.outcomes} is either made storable or refused before it reaches the database, so one
 * record can never fail a whole batch or stop a channel.
 *
 * <p>Per field: <b>identifiers</b> (credential, access key, team and group ids, reason codes, failure
 * kinds, an outcome's model key, the scheduled time) are refused when they hold an unstorable
 * character ({@link StorableText}) or are longer than {@link #MAX_IDENTIFIER_CHARS}: repairing one
 * would name another credential or model, and every genuine one is far shorter. <b>Free text</b>
 * (failure messages and response bodies, a usage record's requested model and model key, which are
 * only shown in the request log) is repaired: unstorable characters become U+FFFD and a model name
 * is cut to {@link #MAX_MODEL_CHARS} (the request log indexes it; an index entry has a size limit).
 * Reasons name the field and what is wrong, never the value. A failure kind that is the state's
 * blacklist marker ({@link AccountState#BLACKLISTED_KIND}) is refused too.
 */
public final class InboundScreen {

    /** Longest identifier a record may carry; admin ids are at most 64 characters. */
    public static final int MAX_IDENTIFIER_CHARS = 256;
    /** Longest model name stored in the request log; longer names are cut with "…". */
    public static final int MAX_MODEL_CHARS = 256;

    private InboundScreen() {}

    /** A record as it will be stored, or why it is refused. */
    public sealed interface Screened<T> {

        /** @param sanitised whether any field was repaired */
        record Accepted<T>(T value, boolean sanitised) implements Screened<T> {}

        /** @param reason for the dead-letter header and the log: names the field, never its value */
        record Refused<T>(String reason) implements Screened<T> {}
    }

    public static Screened<RequestCompleted> usage(RequestCompleted record) {
        String refused = firstRefusal(
                "access_key_id", record.accessKeyId(),
                "team_id", record.teamId(),
                "group_id", record.groupId(),
                "credential_id", record.credentialId(),
                "reason_code", record.reasonCode());
        if (refused != null) {
            return new Screened.Refused<>(refused);
        }
        String requestedModel = modelText(record.requestedModel());
        String modelKey = modelText(record.modelKey());
        // the attempts' upstream text and names are made storable and the chain bounded
        List<AttemptStep> chain = AttemptStep.screen(record.attemptChain());
        if (same(requestedModel, record.requestedModel())
                && same(modelKey, record.modelKey())
                && chain == record.attemptChain()) {
            return new Screened.Accepted<>(record, false);
        }
        return new Screened.Accepted<>(
                record.withModelNames(requestedModel, modelKey).withAttemptChain(chain), true);
    }

    public static Screened<CredentialEvent> outcome(CredentialEvent event) {
        String refused = firstRefusal(
                "credential_id", event.credentialId(),
                "model_key", modelKeyOf(event),
                "kind", kindOf(event),
                "scheduled_time",
                        event instanceof CredentialEvent.ScheduledReactivationTriggered scheduled
                                ? scheduled.scheduledTime()
                                : null);
        if (refused == null && isStateMarker(kindOf(event))) {
            // the blacklist marker is written by the transition alone; an event naming it would
            // take an erroring account out of automatic recovery
            refused = "kind is the state's blacklist marker, which no event may carry";
        }
        if (refused != null) {
            return new Screened.Refused<>(refused);
        }
        if (event instanceof CredentialEvent.TransientFailureRecorded failure) {
            String message = StorableText.sanitise(failure.message());
            String body = StorableText.sanitise(failure.responseBody());
            return same(message, failure.message()) && same(body, failure.responseBody())
                    ? new Screened.Accepted<>(event, false)
                    : new Screened.Accepted<>(
                            new CredentialEvent.TransientFailureRecorded(
                                    failure.eventId(),
                                    failure.credentialId(),
                                    failure.occurredAt(),
                                    failure.modelKey(),
                                    failure.kind(),
                                    failure.status(),
                                    message,
                                    body),
                            true);
        }
        if (event instanceof CredentialEvent.PermanentFailureRecorded failure) {
            String message = StorableText.sanitise(failure.message());
            String body = StorableText.sanitise(failure.responseBody());
            return same(message, failure.message()) && same(body, failure.responseBody())
                    ? new Screened.Accepted<>(event, false)
                    : new Screened.Accepted<>(
                            new CredentialEvent.PermanentFailureRecorded(
                                    failure.eventId(),
                                    failure.credentialId(),
                                    failure.occurredAt(),
                                    failure.modelKey(),
                                    failure.kind(),
                                    failure.status(),
                                    message,
                                    body),
                            true);
        }
        if (event instanceof CredentialEvent.QuotaExhaustionRecorded quota) {
            String message = StorableText.sanitise(quota.message());
            String body = StorableText.sanitise(quota.responseBody());
            String window = limitWindow(quota.limitWindow());
            return same(message, quota.message())
                            && same(body, quota.responseBody())
                            && same(window, quota.limitWindow())
                    ? new Screened.Accepted<>(event, false)
                    : new Screened.Accepted<>(
                            new CredentialEvent.QuotaExhaustionRecorded(
                                    quota.eventId(),
                                    quota.credentialId(),
                                    quota.occurredAt(),
                                    quota.modelKey(),
                                    quota.status(),
                                    message,
                                    body,
                                    quota.resetsAt(),
                                    window),
                            true);
        }
        return new Screened.Accepted<>(event, false);
    }

    /** The longest {@code limit_window} label kept; a longer one is cut (it is a short label, e.g. {@code 5h}). */
    static final int MAX_LIMIT_WINDOW = 32;

    /** A storable, bounded window label: unstorable characters replaced, cut after {@link #MAX_LIMIT_WINDOW}. */
    private static String limitWindow(String window) {
        return StorableText.truncate(StorableText.sanitise(window), MAX_LIMIT_WINDOW);
    }

    /** Why the identifier cannot be stored, or null when it can (null and absent are fine). */
    static String identifierRefusal(String field, String value) {
        if (value == null) {
            return null;
        }
        int unstorable = StorableText.firstUnstorable(value);
        if (unstorable >= 0) {
            return field + " holds an unstorable character ("
                    + (value.charAt(unstorable) == '\u0000' ? "U+0000" : "an unpaired surrogate") + ") at index "
                    + unstorable;
        }
        if (value.length() > MAX_IDENTIFIER_CHARS) {
            return field + " is longer than " + MAX_IDENTIFIER_CHARS + " characters (" + value.length() + ")";
        }
        return null;
    }

    private static String firstRefusal(String... fieldsAndValues) {
        for (int i = 0; i < fieldsAndValues.length; i += 2) {
            String refusal = identifierRefusal(fieldsAndValues[i], fieldsAndValues[i + 1]);
            if (refusal != null) {
                return refusal;
            }
        }
        return null;
    }

    private static boolean isStateMarker(String kind) {
        return kind != null && AccountState.BLACKLISTED_KIND.equalsIgnoreCase(kind.strip());
    }

    private static String modelText(String model) {
        return StorableText.truncate(StorableText.sanitise(model), MAX_MODEL_CHARS);
    }

    private static String modelKeyOf(CredentialEvent event) {
        if (event instanceof CredentialEvent.AttemptSucceeded e) {
            return e.modelKey();
        }
        if (event instanceof CredentialEvent.TransientFailureRecorded e) {
            return e.modelKey();
        }
        if (event instanceof CredentialEvent.PermanentFailureRecorded e) {
            return e.modelKey();
        }
        if (event instanceof CredentialEvent.QuotaExhaustionRecorded e) {
            return e.modelKey();
        }
        if (event instanceof CredentialEvent.ModelTestSucceeded e) {
            return e.modelKey();
        }
        if (event instanceof CredentialEvent.ModelPaused e) {
            return e.modelKey();
        }
        if (event instanceof CredentialEvent.ModelResumed e) {
            return e.modelKey();
        }
        if (event instanceof CredentialEvent.ModelCleared e) {
            return e.modelKey();
        }
        return null;
    }

    private static String kindOf(CredentialEvent event) {
        if (event instanceof CredentialEvent.TransientFailureRecorded e) {
            return e.kind();
        }
        if (event instanceof CredentialEvent.PermanentFailureRecorded e) {
            return e.kind();
        }
        return null;
    }

    @SuppressWarnings("StringEquality")
    private static boolean same(String after, String before) {
        // sanitise and truncate return their argument itself when nothing changed
        return after == before;
    }
}
