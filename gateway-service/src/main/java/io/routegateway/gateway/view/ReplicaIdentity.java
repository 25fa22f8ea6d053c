package io.routegateway.gateway.view;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;

import jakarta.inject.Singleton;

import io.routegateway.core.event.Topics;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * This replica among its peers: an opaque id drawn at start, carried by its outcome records ({@link
 * Topics#ORIGIN_HEADER}) so that it skips them when it reads its peers' outcomes. A restart draws a
 * new id, which is what it should be: nothing it published before is in its new view.
 */
@Singleton
public class ReplicaIdentity {

    private final String id = UUID.randomUUID().toString();
    private final byte[] origin = id.getBytes(StandardCharsets.UTF_8);
    private final Header originHeader = new RecordHeader(Topics.ORIGIN_HEADER, origin.clone());

    public String id() {
        return id;
    }

    /** The header for this replica's outcome records; immutable. */
    public Header originHeader() {
        return originHeader;
    }

    /** Whether a record's origin header value names this replica (compared as bytes: once per record read). */
    public boolean isOwn(byte[] recordOrigin) {
        return recordOrigin != null && Arrays.equals(origin, recordOrigin);
    }
}
