-- The route.outcomes position (partition, offset) of the last record that changed this
-- credential's health. A success that changes nothing is acknowledged without writing anything,
-- not even a processed_events row; when such a success is delivered again after a later failure
-- was applied, a position at or before this one says that it is older than that failure, which it
-- must not clear (route-core SuccessShortcut.isReplay). Null until a record of route.outcomes
-- changes the row; events of the admin API leave it alone.
ALTER TABLE route_credentials ADD COLUMN outcome_partition INTEGER;
ALTER TABLE route_credentials ADD COLUMN outcome_offset BIGINT;
