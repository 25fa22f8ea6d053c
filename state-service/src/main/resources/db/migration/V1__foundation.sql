-- Foundation: proves that Flyway migrates and Hibernate Reactive validates against this database.
-- The route gateway schema itself starts at V2.
CREATE TABLE schema_smoke (
    id   BIGSERIAL PRIMARY KEY,
    note TEXT NOT NULL
);
