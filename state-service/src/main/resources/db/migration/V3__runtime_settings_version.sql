-- Version of the runtime settings snapshot on route.settings: every settings write (and every
-- start-up republication) takes the next value while holding the runtime_settings row locks, so the
-- versions on the topic only move forward.
CREATE SEQUENCE runtime_settings_version_seq;
