package io.routegateway.state.team;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.state.pool.AdminWrites;
import io.routegateway.state.publish.StateOutbox;
import io.routegateway.state.repository.StateRows;
import io.routegateway.state.repository.TeamEntity;
import io.routegateway.state.repository.TeamRepository;
import io.routegateway.state.spend.SpendReader;
import io.routegateway.state.spend.SpendRules;
import io.routegateway.state.spend.SpendView;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.Inputs;
import io.routegateway.state.web.JsonBody;
import io.smallrye.mutiny.Uni;

/**
 * Teams: every write stores the row and its {@code TeamSnapshot} outbox row in one transaction; a
 * team with a budget also gets the {@code spend.v1} of its current window queued when its limits
 * change. A team is deleted only while it owns no key: the delete locks the team row, and a key
 * joining a team holds that row {@code FOR SHARE} until it commits, so the count under the lock is
 * final.
 */
@ApplicationScoped
public class TeamAdminService {

    private final TeamRepository teams;
    private final StateOutbox outbox;
    private final AdminWrites writes;
    private final SpendReader spend;
    private final Clock clock;

    TeamAdminService(TeamRepository teams, StateOutbox outbox, AdminWrites writes, SpendReader spend, Clock clock) {
        this.teams = teams;
        this.outbox = outbox;
        this.writes = writes;
        this.spend = spend;
        this.clock = clock;
    }

    /** Oldest first; {@code cursor} is the {@code next_cursor} of the previous page. */
    @WithSession
    public Uni<io.routegateway.state.web.Page<TeamView>> list(String limitSent, String cursorSent) {
        int limit = TeamRules.limit(limitSent);
        TeamRules.Cursor after = TeamRules.cursor(cursorSent);
        Sort order = Sort.by("createdAt").and("id");
        var query = after == null
                ? teams.findAll(order)
                : teams.find(
                        "createdAt > :at or (createdAt = :at and id > :id)",
                        order,
                        Parameters.with("at", Instant.EPOCH.plus(after.epochMicros(), ChronoUnit.MICROS))
                                .and("id", after.id()));
        return query.page(Page.ofSize(limit + 1)).list().flatMap(rows -> {
            List<TeamEntity> page = rows.size() > limit ? rows.subList(0, limit) : rows;
            String next = rows.size() > limit
                    ? TeamRules.Cursor.after(page.get(limit - 1).createdAt, page.get(limit - 1).id)
                            .toString()
                    : null;
            return teams.keyCounts(page.stream().map(row -> row.id).toList()).map(counts -> {
                List<TeamView> items = new ArrayList<>();
                for (TeamEntity row : page) {
                    items.add(view(row, counts.getOrDefault(row.id, 0L)));
                }
                return new io.routegateway.state.web.Page<>(items, next);
            });
        });
    }

    @WithSession
    public Uni<TeamView> get(String id) {
        return teams.findById(id).flatMap(row -> {
            if (row == null) {
                throw notFound(id);
            }
            return view(row);
        });
    }

    public Uni<TeamView> create(JsonBody<TeamInput> body) {
        TeamRules.NewTeam checked = TeamRules.create(body);
        // stored as TIMESTAMPTZ, which keeps microseconds: the entity holds what the row holds
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        TeamEntity row = new TeamEntity();
        row.id = checked.id();
        row.name = checked.name();
        StateRows.writeTeamLimits(row, checked.limits());
        row.weight = checked.weight();
        row.createdAt = now;
        row.updatedAt = now;
        return writes.inTransaction(() -> teams.findById(row.id)
                .flatMap(taken -> {
                    if (taken != null) {
                        throw AdminException.conflict("team " + row.id + " already exists");
                    }
                    return teams.persist(row);
                })
                .flatMap(saved -> teams.flush())
                .flatMap(flushed -> outbox.teamChanged(row))
                .flatMap(version -> outbox.spendRepublished(SpendSnapshot.TEAM, row.id, checked.limits()))
                .map(ok -> view(row, 0)));
    }

    public Uni<TeamView> update(String id, JsonBody<TeamInput> body) {
        TeamRules.Changes changes = TeamRules.update(id, body);
        return writes.inTransaction(() -> teams.findForUpdate(id).flatMap(row -> {
            if (row == null) {
                throw notFound(id);
            }
            if (changes.name() != null) {
                row.name = changes.name();
            }
            if (changes.limits() != null) {
                StateRows.writeTeamLimits(row, changes.limits());
            }
            if (changes.weight() != null) {
                row.weight = changes.weight();
            }
            return outbox.teamChanged(row)
                    .flatMap(version -> changes.limits() == null
                            ? Uni.createFrom().voidItem()
                            : outbox.spendRepublished(SpendSnapshot.TEAM, row.id, changes.limits()))
                    .flatMap(ok -> view(row));
        }));
    }

    /**
     * Deletes a team that owns no key (409 {@code team.has_keys} otherwise, nothing deleted) and
     * publishes its tombstone and its spend's.
     */
    public Uni<Void> delete(String id) {
        return writes.inTransaction(() -> teams.findForUpdate(id).flatMap(row -> {
            if (row == null) {
                throw notFound(id);
            }
            return teams.keyCount(id).flatMap(keys -> {
                if (keys > 0) {
                    throw new AdminException(
                            409,
                            AdminCodes.TEAM_HAS_KEYS,
                            "the team still owns " + keys + " AccessKey(s); move or delete them first");
                }
                return teams.delete(row).flatMap(deleted -> teams.flush()).flatMap(flushed -> outbox.teamDeleted(id));
            });
        }));
    }

    /** The team's spend in its current window. */
    public Uni<SpendView> spend(String id) {
        return Panache.withSession(() -> teams.findById(id).map(row -> {
                    if (row == null) {
                        throw notFound(id);
                    }
                    return StateRows.teamLimits(row);
                }))
                .flatMap(limits -> spend.current(new SpendRules.Subject(SpendSnapshot.TEAM, id), limits));
    }

    private Uni<TeamView> view(TeamEntity row) {
        return teams.keyCount(row.id).map(count -> view(row, count));
    }

    private static TeamView view(TeamEntity row, long keyCount) {
        return TeamView.of(StateRows.teamSnapshot(row, row.updatedAt), keyCount, row.createdAt, row.updatedAt);
    }

    /** The path id is echoed only when it is a well-formed id (letters, digits, '.', '_', '-'). */
    private static AdminException notFound(String id) {
        return new AdminException(
                404, AdminCodes.NOT_FOUND, Inputs.isId(id) ? "team " + id + " does not exist" : "no such team");
    }
}
