-- +goose Up
-- Alarms from the locks' own events (DECISIONS D72): a tampered lock, and a lock opened outside every
-- station and depot fence while its car carried a load. Level I, pushed, like sealBroken: both mean
-- someone may be at the product. (PostgreSQL also gets the seal-number search index here; SQLite's
-- LIKE '%x%' scans either way.)
INSERT INTO alarm_types (code, sort, level, grp, enabled, push) VALUES
    ('lockTampered', 11, 1, 'safety', 1, 1),
    ('lockOpenedAway', 12, 1, 'safety', 1, 1);

-- +goose Down
DELETE FROM alarms WHERE type_code IN ('lockTampered', 'lockOpenedAway');
DELETE FROM alarm_types WHERE code IN ('lockTampered', 'lockOpenedAway');
