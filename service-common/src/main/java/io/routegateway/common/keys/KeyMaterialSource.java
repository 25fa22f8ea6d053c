package io.routegateway.common.keys;

import java.time.Instant;
import java.util.List;

/**
 * Key material a service holds beyond the Kafka client's stores, whose end dates go into {@code
 * route_key_material_expiry_seconds}: a bean of this type is picked up by {@link KeyMaterialGauges}.
 */
public interface KeyMaterialSource {

    /** The {@code material} label: fixed per source, so the label stays bounded. */
    String material();

    /** When each piece of it stops being valid; empty when nothing is configured (no series then). */
    List<Instant> notAfters();
}
