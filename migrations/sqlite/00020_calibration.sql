-- +goose Up
-- Remote calibration (internal/tank/calib, DECISIONS D40). One row per read (0x8104) or set (0x8103)
-- an operator asked for. items is JSON: for a read the IDs asked ([] = all) and, once answered, the
-- values; for a set the changes [{id, old, new}]. state: sent, acknowledged, failed, timeout, offline.
-- command_id links the protocol log row in commands (0 while unknown). plate and group_path are the
-- car's when the command was made (the history's scope and what it shows).
CREATE TABLE calib_commands (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    car_id      INTEGER NOT NULL,
    terminal_id INTEGER NOT NULL,
    plate       TEXT    NOT NULL,
    group_id    INTEGER NOT NULL,
    group_path  TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    user_name   TEXT    NOT NULL,
    kind        TEXT    NOT NULL,
    items       TEXT    NOT NULL DEFAULT '[]',
    state       TEXT    NOT NULL,
    result      INTEGER,
    command_id  INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    done_at     INTEGER
);
CREATE INDEX calib_commands_car ON calib_commands(car_id, created_at);
CREATE INDEX calib_commands_created ON calib_commands(created_at);

-- The last known value of each parameter of a terminal: from its last answered read, or from an
-- acknowledged set (source 'read' / 'set'); at is when (Unix ms).
CREATE TABLE calib_values (
    terminal_id INTEGER NOT NULL,
    param_id    INTEGER NOT NULL,
    value       TEXT    NOT NULL,
    source      TEXT    NOT NULL,
    at          INTEGER NOT NULL,
    PRIMARY KEY (terminal_id, param_id)
);

-- +goose Down
DROP TABLE calib_values;
DROP TABLE calib_commands;
