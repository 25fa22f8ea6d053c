package io.routegateway.core.event;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The one source of request and event ids of every service: random version-4 UUIDs without {@link
 * UUID#randomUUID()}'s shared {@code SecureRandom} (a lock on the request path). The ids need
 * uniqueness, not secrecy.
 */
public final class EventIds {

    private EventIds() {}

    public static UUID next() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L;
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(high, low);
    }
}
