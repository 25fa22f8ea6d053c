package io.routegateway.state.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.routegateway.core.access.AdminPath;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Every successful admin GET answering JSON carries a strong {@code ETag} computed over its body
 * (SHA-256 of the bytes sent); a request whose {@code If-None-Match} names it is answered {@code
 * 304 Not Modified} without a body. The console polls its lists every few seconds: an unchanged
 * list then costs a few hundred bytes instead of the whole list. The body is serialized once here
 * (with the service's ObjectMapper) and the same bytes are sent, so the tag always matches what
 * the client received.
 */
public class ConditionalGetFilter {

    @Inject
    ObjectMapper mapper;

    @ServerResponseFilter
    public void tag(ContainerRequestContext request, ContainerResponseContext response) throws JsonProcessingException {
        if (!"GET".equals(request.getMethod())
                || response.getStatus() != 200
                || !response.hasEntity()
                || !AdminPath.isAdmin(request.getUriInfo().getPath())
                || response.getMediaType() == null
                || !MediaType.APPLICATION_JSON_TYPE.isCompatible(response.getMediaType())) {
            return;
        }
        Object entity = response.getEntity();
        byte[] body;
        if (entity instanceof byte[] bytes) {
            body = bytes;
        } else if (entity instanceof String text) {
            body = text.getBytes(StandardCharsets.UTF_8);
        } else {
            body = mapper.writeValueAsBytes(entity);
        }
        String etag = etag(body);
        response.getHeaders().putSingle(HttpHeaders.ETAG, etag);
        if (matches(request.getHeaderString(HttpHeaders.IF_NONE_MATCH), etag)) {
            response.setStatus(304);
            response.setEntity(null);
            return;
        }
        response.setEntity(body, response.getEntityAnnotations(), MediaType.APPLICATION_JSON_TYPE);
    }

    /** A strong tag: the first 128 bits of the body's SHA-256, base64url, quoted. */
    static String etag(byte[] body) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(body);
            byte[] half = java.util.Arrays.copyOf(digest, 16);
            return "\"" + Base64.getUrlEncoder().withoutPadding().encodeToString(half) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether an If-None-Match header (a list of tags, weak or strong, or *) names this tag. */
    static boolean matches(String ifNoneMatch, String etag) {
        if (ifNoneMatch == null || ifNoneMatch.length() > 4096) {
            return false;
        }
        for (String candidate : ifNoneMatch.split(",")) {
            String tag = candidate.trim();
            if (tag.equals("*")) {
                return true;
            }
            if (tag.startsWith("W/")) {
                tag = tag.substring(2);
            }
            if (tag.equals(etag)) {
                return true;
            }
        }
        return false;
    }
}
