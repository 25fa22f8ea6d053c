package io.routegateway.state.team;

import java.time.Instant;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.limits.Limits;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.Inputs;
import io.routegateway.state.web.JsonBody;
import io.routegateway.state.web.Paging;

/**
 * The checks and the mapping of a team's input, without I/O: what a create stores, what an update
 * changes, and the listing's page position. {@link TeamAdminService} locks, counts keys and writes.
 * Fields are checked in the order of {@link TeamInput}.
 */
public final class TeamRules {

    public static final int MIN_WEIGHT = 1;
    public static final int MAX_WEIGHT = 1000;

    private TeamRules() {}

    /** Every field of a new team, checked. */
    public record NewTeam(String id, String name, Limits limits, int weight) {}

    /** What an update changes; null is "unchanged" ({@code limits} null = unchanged, {@link Limits#NONE} = none). */
    public record Changes(String name, Limits limits, Integer weight) {}

    /** Position after the last team of a page (teams are listed oldest first): {@code <epoch µs>_<id>}. */
    public record Cursor(long epochMicros, String id) {

        @Override
        public String toString() {
            return epochMicros + "_" + id;
        }

        static Cursor after(Instant createdAt, String id) {
            return new Cursor(createdAt.getEpochSecond() * 1_000_000 + createdAt.getNano() / 1_000, id);
        }
    }

    public static NewTeam create(JsonBody<TeamInput> body) {
        TeamInput input = body.value();
        String id = Inputs.idOrNew(input.id(), "team");
        String name = Inputs.name(input.name());
        Limits limits = Limits.parse(body.node("limits"));
        int weight = body.has("weight") ? weight(body.node("weight"), input.weight()) : MIN_WEIGHT;
        return new NewTeam(id, name, limits, weight);
    }

    /** @param pathId the id in the path: a body {@code id} may only repeat it */
    public static Changes update(String pathId, JsonBody<TeamInput> body) {
        TeamInput input = body.value();
        if (body.has("id") && !Objects.equals(input.id(), pathId)) {
            throw AdminException.invalid(AdminCodes.ID, "a team's id cannot be changed; leave id out");
        }
        String name = body.has("name") ? Inputs.name(input.name()) : null;
        Limits limits = body.has("limits") ? Limits.parse(body.node("limits")) : null;
        Integer weight = body.has("weight") ? weight(body.node("weight"), input.weight()) : null;
        return new Changes(name, limits, weight);
    }

    private static int weight(JsonNode sent, Integer weight) {
        if (sent == null || sent.isNull() || weight == null || weight < MIN_WEIGHT || weight > MAX_WEIGHT) {
            throw AdminException.invalid(
                    AdminCodes.TEAM_WEIGHT, "weight must be a whole number " + MIN_WEIGHT + ".." + MAX_WEIGHT);
        }
        return weight;
    }

    /** The page size sent (null = default), see {@link Paging#limit}. */
    public static int limit(String sent) {
        return Paging.limit(sent);
    }

    /** The {@code next_cursor} of a previous page, or null when none is sent. */
    public static Cursor cursor(String sent) {
        if (sent == null || sent.isBlank()) {
            return null;
        }
        int split = sent.indexOf('_');
        try {
            Cursor cursor = new Cursor(
                    Long.parseLong(sent.substring(0, split)),
                    Inputs.refId(sent.substring(split + 1), AdminCodes.QUERY));
            if (cursor.id() == null) {
                throw new IllegalArgumentException("no id");
            }
            return cursor;
        } catch (RuntimeException e) {
            throw AdminException.invalid(AdminCodes.QUERY, "cursor must be the next_cursor of a previous page");
        }
    }
}
