-- +goose Up
-- The identity-conflict alarm (DECISIONS D25): another connection claimed a terminal with its phone,
-- terminal ID and plate (or its auth code) while the terminal's own session went on reporting. Level I,
-- pushed: someone is trying to pass for a truck on the dispatcher's map.
INSERT INTO alarm_types (code, sort, level, grp, enabled, push) VALUES ('identityConflict', 10, 1, 'safety', 1, 1);

-- +goose Down
DELETE FROM alarms WHERE type_code = 'identityConflict';
DELETE FROM alarm_types WHERE code = 'identityConflict';
