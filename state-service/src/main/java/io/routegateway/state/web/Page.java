package io.routegateway.state.web;

import java.util.List;

/**
 * One page of a newest-first listing.
 *
 * @param nextCursor pass as {@code cursor} to get the next (older) page; null on the last page
 */
public record Page<T>(List<T> items, String nextCursor) {

    public Page {
        items = List.copyOf(items);
    }
}
