-- The attempt chain of a request (issue 38): request-completed.v1's attempt_chain as sent, screened
-- (route-core AttemptStep: at most 16 entries, upstream text storable and cut to 300 characters).
-- Null for rows written before this column and for requests that made no upstream attempt. Added to
-- the partitioned parent, so every daily partition and the default one get it; the rollup trigger
-- names its columns and is unchanged.
ALTER TABLE request_logs ADD COLUMN attempt_chain JSONB;
