-- +goose Up
-- Alarm management (internal/alarm): alarm types with level, group and push flag; control modes
-- (which types are watched, thresholds) per group or per car; alarm records with their processing;
-- overtime parking periods. Times are Unix ms; coordinates micro-degrees WGS-84; speed 1/10 km/h.
CREATE TABLE alarm_types (
    code    TEXT    PRIMARY KEY,
    sort    INTEGER NOT NULL DEFAULT 0,
    level   INTEGER NOT NULL,
    grp     TEXT    NOT NULL,
    enabled INTEGER NOT NULL DEFAULT 1,
    push    INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE alarm_controls (
    id          BIGSERIAL PRIMARY KEY,
    kind        TEXT    NOT NULL,
    target_id   BIGINT  NOT NULL,
    group_path  TEXT    NOT NULL,
    watched     TEXT    NOT NULL DEFAULT '',
    speed_limit INTEGER NOT NULL DEFAULT 0,
    class_speed TEXT    NOT NULL DEFAULT '',
    parking_minutes INTEGER NOT NULL DEFAULT 0,
    offline_minutes INTEGER NOT NULL DEFAULT 0,
    level_drop_litres INTEGER NOT NULL DEFAULT 0,
    updated_by  BIGINT  NOT NULL DEFAULT 0,
    updated_at  BIGINT  NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX alarm_controls_target ON alarm_controls(kind, target_id);

CREATE TABLE alarms (
    id          BIGSERIAL PRIMARY KEY,
    car_id      BIGINT  NOT NULL,
    terminal_id BIGINT  NOT NULL DEFAULT 0,
    group_id    BIGINT  NOT NULL,
    group_path  TEXT    NOT NULL,
    plate       TEXT    NOT NULL DEFAULT '',
    type_code   TEXT    NOT NULL,
    level       INTEGER NOT NULL,
    start_at    BIGINT  NOT NULL,
    end_at      BIGINT,
    lat         INTEGER NOT NULL DEFAULT 0,
    lon         INTEGER NOT NULL DEFAULT 0,
    speed       INTEGER NOT NULL DEFAULT 0,
    detail      TEXT    NOT NULL DEFAULT '',
    state       INTEGER NOT NULL DEFAULT 0,
    handler_id  BIGINT  NOT NULL DEFAULT 0,
    handler_name TEXT   NOT NULL DEFAULT '',
    handled_at  BIGINT,
    remark      TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX alarms_path_start ON alarms(group_path, start_at);
CREATE INDEX alarms_car_start ON alarms(car_id, start_at);
CREATE INDEX alarms_open ON alarms(end_at, car_id);

CREATE TABLE parking_periods (
    id          BIGSERIAL PRIMARY KEY,
    car_id      BIGINT  NOT NULL,
    group_id    BIGINT  NOT NULL,
    group_path  TEXT    NOT NULL,
    plate       TEXT    NOT NULL DEFAULT '',
    start_at    BIGINT  NOT NULL,
    end_at      BIGINT,
    lat         INTEGER NOT NULL DEFAULT 0,
    lon         INTEGER NOT NULL DEFAULT 0,
    threshold_minutes INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX parking_periods_path_start ON parking_periods(group_path, start_at);
CREATE INDEX parking_periods_car_start ON parking_periods(car_id, start_at);

-- Defaults: the platform's rules, then the JT/T 808 alarm bits (t<bit>). Push only for levels I–II.
INSERT INTO alarm_types (code, sort, level, grp, enabled, push) VALUES
    ('abnormalUnload', 1, 1, 'safety', 1, 1),
    ('sealBroken', 2, 1, 'safety', 1, 1),
    ('levelDrop', 3, 2, 'safety', 1, 1),
    ('lockOpened', 4, 3, 'safety', 1, 0),
    ('speeding', 5, 3, 'driving', 1, 0),
    ('overtimeParking', 6, 4, 'operation', 1, 0),
    ('offline', 7, 4, 'device', 1, 0),
    ('fenceIn', 8, 5, 'operation', 1, 0),
    ('fenceOut', 9, 5, 'operation', 1, 0),
    ('t0', 100, 1, 'safety', 1, 1),
    ('t1', 101, 3, 'driving', 1, 0),
    ('t2', 102, 3, 'driving', 1, 0),
    ('t3', 103, 2, 'safety', 1, 1),
    ('t4', 104, 4, 'device', 1, 0),
    ('t5', 105, 4, 'device', 1, 0),
    ('t6', 106, 4, 'device', 1, 0),
    ('t7', 107, 4, 'device', 1, 0),
    ('t8', 108, 3, 'device', 1, 0),
    ('t9', 109, 5, 'device', 1, 0),
    ('t10', 110, 5, 'device', 1, 0),
    ('t11', 111, 5, 'device', 1, 0),
    ('t12', 112, 5, 'device', 1, 0),
    ('t13', 113, 5, 'driving', 1, 0),
    ('t14', 114, 5, 'driving', 1, 0),
    ('t18', 118, 4, 'driving', 1, 0),
    ('t19', 119, 4, 'operation', 1, 0),
    ('t20', 120, 5, 'operation', 1, 0),
    ('t21', 121, 5, 'operation', 1, 0),
    ('t22', 122, 5, 'operation', 1, 0),
    ('t23', 123, 4, 'operation', 1, 0),
    ('t24', 124, 5, 'device', 1, 0),
    ('t25', 125, 3, 'safety', 1, 0),
    ('t26', 126, 1, 'safety', 1, 1),
    ('t27', 127, 2, 'safety', 1, 1),
    ('t28', 128, 2, 'safety', 1, 1),
    ('t29', 129, 1, 'safety', 1, 1),
    ('t30', 130, 1, 'safety', 1, 1),
    ('t31', 131, 2, 'safety', 1, 1);

-- +goose Down
DROP TABLE parking_periods;
DROP TABLE alarms;
DROP TABLE alarm_controls;
DROP TABLE alarm_types;
