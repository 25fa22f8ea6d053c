-- Whether and how a group's credentials of another protocol serve a request through a protocol
-- bridge (BridgePolicy.wire()): native_first (default), any, native_only.
ALTER TABLE route_groups ADD COLUMN bridging TEXT NOT NULL DEFAULT 'native_first';
