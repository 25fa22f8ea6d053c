package io.routegateway.state.usage;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import io.routegateway.state.identity.CurrentPrincipal;
import io.routegateway.state.web.AdminApi;
import io.routegateway.state.web.Page;
import io.smallrye.mutiny.Uni;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestMulti;

/**
 * Request log and usage: the same filters, as query parameters. A team role's answers are cut to
 * its own team ({@code team_id} forced to it, another team's 403); its request detail finds only
 * its team's requests (another team's request is the 404 of a missing one).
 */
@Path(AdminApi.BASE)
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "requests", description = "Request logs and usage statistics")
public class RequestLogResource {

    private final RequestStatsService service;
    private final UsageExport export;
    private final CurrentPrincipal current;

    RequestLogResource(RequestStatsService service, UsageExport export, CurrentPrincipal current) {
        this.service = service;
        this.export = export;
        this.current = current;
    }

    @GET
    @Path("/usage/export")
    @Produces("text/csv")
    @Operation(
            summary = "Request logs or per-minute rollups of a time range (at most 31 days) as CSV or NDJSON, streamed;"
                    + " the request log's filters")
    public RestMulti<String> export(
            @Context UriInfo uri,
            @Parameter(description = "requests (default) or rollups") @QueryParam("kind") String kind,
            @Parameter(description = "csv (default) or ndjson") @QueryParam("format") String format,
            @QueryParam("access_key_id") String accessKeyId,
            @QueryParam("credential_id") String credentialId,
            @QueryParam("group_id") String groupId,
            @QueryParam("model") String model,
            @QueryParam("success") String success,
            @QueryParam("reason_code") String reasonCode,
            @QueryParam("probe") String probe,
            @Parameter(description = "inclusive ISO-8601 instant, required") @QueryParam("from") String from,
            @Parameter(description = "exclusive ISO-8601 instant, required") @QueryParam("to") String to,
            @QueryParam("team_id") String teamId) {
        RequestFilter filter = UsageRules.filter(
                accessKeyId, credentialId, groupId, model, success, reasonCode, probe, from, to, teamId);
        filter = filter.withTeam(current.teamFilter(filter.teamId()));
        UsageExport.Request request =
                UsageExport.request(uri.getQueryParameters().keySet(), kind, format, filter);
        return RestMulti.fromMultiData(export.stream(request))
                .header("Content-Type", request.contentType())
                .build();
    }

    @GET
    @Path("/requests")
    @Operation(summary = "Request log, newest first, failed requests included")
    public Uni<Page<RequestLogView>> requests(
            @QueryParam("access_key_id") String accessKeyId,
            @QueryParam("credential_id") String credentialId,
            @QueryParam("group_id") String groupId,
            @Parameter(description = "requested name or model key") @QueryParam("model") String model,
            @QueryParam("success") String success,
            @QueryParam("reason_code") String reasonCode,
            @Parameter(description = "true: only probes and model tests; false: none") @QueryParam("probe")
                    String probe,
            @Parameter(description = "inclusive ISO-8601 instant") @QueryParam("from") String from,
            @Parameter(description = "exclusive ISO-8601 instant") @QueryParam("to") String to,
            @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor,
            @Parameter(description = "the team the requests were charged to") @QueryParam("team_id") String teamId) {
        RequestFilter filter = UsageRules.filter(
                accessKeyId, credentialId, groupId, model, success, reasonCode, probe, from, to, teamId);
        filter = filter.withTeam(current.teamFilter(filter.teamId()));
        return service.requests(filter, limit, cursor);
    }

    @GET
    @Path("/requests/{request_id}")
    @Operation(
            summary = "One request of the log with its attempt chain: each upstream attempt's credential, model key,"
                    + " status, failure kind and scope, latency, decision and the upstream's error text (cut, as text)")
    public Uni<RequestLogDetail> request(@PathParam("request_id") String requestId) {
        return service.request(requestId, current.onlyTeam());
    }

    @GET
    @Path("/usage")
    @Operation(
            summary =
                    "Tokens, cost, requests and failures per access key, team, credential, group, model, reason code, hour or day")
    public Uni<UsageView> usage(
            @Parameter(
                            description =
                                    "access_key, team, credential, group, model, reason_code, hour (UTC) or day (default)")
                    @QueryParam("group_by")
                    String groupBy,
            @QueryParam("access_key_id") String accessKeyId,
            @QueryParam("credential_id") String credentialId,
            @QueryParam("group_id") String groupId,
            @QueryParam("model") String model,
            @QueryParam("success") String success,
            @QueryParam("reason_code") String reasonCode,
            @QueryParam("probe") String probe,
            @QueryParam("from") String from,
            @QueryParam("to") String to,
            @QueryParam("team_id") String teamId) {
        RequestFilter filter = UsageRules.filter(
                accessKeyId, credentialId, groupId, model, success, reasonCode, probe, from, to, teamId);
        filter = filter.withTeam(current.teamFilter(filter.teamId()));
        return service.usage(filter, groupBy);
    }
}
