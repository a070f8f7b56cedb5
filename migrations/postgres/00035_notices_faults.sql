-- +goose Up
-- Text templates (issue 18, D68) and after-sales fault records (issue 18, D69).

-- The texts the system sends: the 0x8300 dispatch text and the console's alarm and help-request
-- pushes, per kind and language. group_id 0 is the platform-wide template (the built-in ones are
-- seeded by the notice service, reset but never deleted); a group's own template overrides it for the
-- cars of that group's subtree (the nearest group wins).
CREATE TABLE notice_templates (
    id          BIGSERIAL PRIMARY KEY,
    group_id    BIGINT  NOT NULL DEFAULT 0,
    kind        TEXT    NOT NULL,
    lang        TEXT    NOT NULL,
    body        TEXT    NOT NULL,
    builtin     BOOLEAN NOT NULL DEFAULT FALSE,
    updated_by  BIGINT  NOT NULL DEFAULT 0,
    updated_at  BIGINT  NOT NULL DEFAULT 0,
    created_at  BIGINT  NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX notice_templates_key ON notice_templates (group_id, kind, lang);

-- A fault report of a car (or a device on it): filed under the car's group; visits and parts are small
-- JSON lists kept with the record; source_kind/source_id link the record it was raised from (an
-- offline record: the car and the start of its silence in source_id/source_at; a sensor-fault event:
-- car_tank_events.id).
CREATE TABLE faults (
    id             BIGSERIAL PRIMARY KEY,
    group_id       BIGINT  NOT NULL,
    car_id         BIGINT  NOT NULL,
    device         TEXT    NOT NULL DEFAULT '',
    fault_type     TEXT    NOT NULL,
    symptom        TEXT    NOT NULL,
    reported_by    TEXT    NOT NULL DEFAULT '',
    reported_at    BIGINT  NOT NULL,
    technician_id  BIGINT  NOT NULL DEFAULT 0,
    state          TEXT    NOT NULL,
    resolution     TEXT    NOT NULL DEFAULT '',
    closed_at      BIGINT  NOT NULL DEFAULT 0,
    visits         TEXT    NOT NULL DEFAULT '[]',
    parts          TEXT    NOT NULL DEFAULT '[]',
    source_kind    TEXT    NOT NULL DEFAULT '',
    source_id      BIGINT  NOT NULL DEFAULT 0,
    source_at      BIGINT  NOT NULL DEFAULT 0,
    created_by     BIGINT  NOT NULL DEFAULT 0,
    created_at     BIGINT  NOT NULL,
    updated_at     BIGINT  NOT NULL
);
CREATE INDEX faults_group ON faults (group_id, reported_at);
CREATE INDEX faults_car ON faults (car_id, reported_at);
CREATE INDEX faults_source ON faults (source_kind, source_id);

-- +goose Down
DROP TABLE faults;
DROP TABLE notice_templates;
