package io.routegateway.state.audit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.routegateway.core.json.Json;
import io.routegateway.state.repository.AuditEntity;
import io.routegateway.state.repository.AuditRepository;
import io.routegateway.state.web.AdminApi;
import io.routegateway.state.web.Page;
import io.routegateway.state.web.Paging;
import io.routegateway.state.web.RowExport;
import io.smallrye.mutiny.Uni;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestMulti;

/**
 * The audit log, read-only: entries are written only in the transactions of the writes they record
 * ({@code identity/AuditTrail}); no endpoint changes or deletes one (any other method is 405).
 */
@Path(AdminApi.BASE + "/audit")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "audit", description = "Who changed what: every admin write, newest first")
public class AuditResource {

    private final AuditRepository audit;
    private final AuditExport export;

    AuditResource(AuditRepository audit, AuditExport export) {
        this.audit = audit;
        this.export = export;
    }

    @GET
    @Path("/export")
    @Produces("text/csv")
    @Operation(
            summary = "Audit entries of a time range (at most 366 days), oldest first, as CSV or NDJSON, streamed;"
                    + " the listing's filters")
    public RestMulti<String> export(
            @Context UriInfo uri,
            @Parameter(description = "csv (default) or ndjson") @QueryParam("format") String format,
            @QueryParam("subject") String subject,
            @QueryParam("resource_type") String resourceType,
            @QueryParam("resource_id") String resourceId,
            @Parameter(description = "inclusive ISO-8601 instant, required") @QueryParam("from") String from,
            @Parameter(description = "exclusive ISO-8601 instant, required") @QueryParam("to") String to) {
        AuditRules.Export request = AuditRules.export(
                uri.getQueryParameters().keySet(), format, subject, resourceType, resourceId, from, to);
        return RestMulti.fromMultiData(export.stream(request))
                .header("Content-Type", RowExport.contentType(request.csv()))
                .build();
    }

    @GET
    @Operation(summary = "Audit entries, newest first, filtered by subject, resource and time")
    public Uni<Page<AuditView>> list(
            @QueryParam("subject") String subject,
            @Parameter(description = "access-keys, credentials, groups, teams, settings, webhooks, api-tokens")
                    @QueryParam("resource_type")
                    String resourceType,
            @QueryParam("resource_id") String resourceId,
            @Parameter(description = "inclusive ISO-8601 instant") @QueryParam("from") String from,
            @Parameter(description = "exclusive ISO-8601 instant") @QueryParam("to") String to,
            @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        AuditRules.Filter filter = AuditRules.filter(subject, resourceType, resourceId, from, to, cursor);
        int size = Paging.limit(limit);
        List<String> where = new ArrayList<>();
        Map<String, Object> parameters = new HashMap<>();
        add(where, parameters, "subject = :subject", "subject", filter.subject());
        add(where, parameters, "resourceType = :resourceType", "resourceType", filter.resourceType());
        add(where, parameters, "resourceId = :resourceId", "resourceId", filter.resourceId());
        add(where, parameters, "occurredAt >= :from", "from", filter.from());
        add(where, parameters, "occurredAt < :to", "to", filter.to());
        add(where, parameters, "id < :cursor", "cursor", filter.cursor());
        String query = where.isEmpty() ? "order by id desc" : String.join(" and ", where) + " order by id desc";
        return Panache.withSession(
                        () -> audit.find(query, parameters).range(0, size - 1).list())
                .map(rows -> {
                    List<AuditView> items =
                            rows.stream().map(AuditResource::view).toList();
                    String next = rows.size() < size ? null : String.valueOf(rows.get(rows.size() - 1).id);
                    return new Page<>(items, next);
                });
    }

    private static void add(
            List<String> where, Map<String, Object> parameters, String clause, String name, Object value) {
        if (value != null) {
            where.add(clause);
            parameters.put(name, value);
        }
    }

    private static AuditView view(AuditEntity row) {
        return new AuditView(
                row.id,
                row.occurredAt,
                row.subject,
                row.via,
                row.tokenId,
                row.method,
                row.path,
                row.resourceType,
                row.resourceId,
                json(row.beforeJson),
                json(row.afterJson),
                row.requestId);
    }

    private static JsonNode json(String text) {
        if (text == null) {
            return null;
        }
        try {
            return Json.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
