-- +goose Up
-- Alarms from the locks' own events (DECISIONS D72): a tampered lock, and a lock opened outside every
-- station and depot fence while its car carried a load. Level I, pushed, like sealBroken: both mean
-- someone may be at the product.
INSERT INTO alarm_types (code, sort, level, grp, enabled, push) VALUES
    ('lockTampered', 11, 1, 'safety', 1, 1),
    ('lockOpenedAway', 12, 1, 'safety', 1, 1);

-- The lead-seal page's number search (LIKE '%x%', db.Contains) by any part of the number, as the
-- waybill number's (00030, D58): trigram indexes on the seals and their incidents. pg_trgm exists
-- since 00030; created again for a store that skipped it.
-- +goose StatementBegin
DO $$ BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;
EXCEPTION WHEN unique_violation OR duplicate_object THEN NULL;
END $$;
-- +goose StatementEnd
CREATE INDEX seal_records_no_trgm ON seal_records USING gin (seal_no public.gin_trgm_ops);
CREATE INDEX seal_incidents_no_trgm ON seal_incidents USING gin (seal_no public.gin_trgm_ops);

-- +goose Down
DROP INDEX seal_incidents_no_trgm;
DROP INDEX seal_records_no_trgm;
DELETE FROM alarms WHERE type_code IN ('lockTampered', 'lockOpenedAway');
DELETE FROM alarm_types WHERE code IN ('lockTampered', 'lockOpenedAway');
