-- Token details priced apart (route-core usage/ModelPrices): of a request's input tokens, those
-- read from the prompt cache and those written to it for five minutes or one hour; of its output
-- tokens, the reasoning ones. Null = the upstream did not say (rows stored before this migration
-- included). cost_micros is priced per kind from these.
ALTER TABLE request_logs ADD COLUMN cache_read_tokens BIGINT;
ALTER TABLE request_logs ADD COLUMN cache_write_5m_tokens BIGINT;
ALTER TABLE request_logs ADD COLUMN cache_write_1h_tokens BIGINT;
ALTER TABLE request_logs ADD COLUMN reasoning_tokens BIGINT;

-- The spend windows count them too: cache_write_tokens stays the total of both writes, of which
-- cache_write_1h_tokens are the 1-hour ones (the 5-minute ones are the rest).
ALTER TABLE spend_windows ADD COLUMN cache_write_1h_tokens BIGINT NOT NULL DEFAULT 0;
ALTER TABLE spend_windows ADD COLUMN reasoning_tokens BIGINT NOT NULL DEFAULT 0;
