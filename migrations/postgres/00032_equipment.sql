-- +goose Up
-- Equipment (issue 18, D62): device models and what each offers (access/equipmentFun), and the devices on
-- cars and at stations (basedata/equipment). Terminals, locks and station gauges stay in their own
-- registers; equipment holds only what those lack (model, install date, warranty, state, notes), keyed by
-- kind + serial. Cameras, probes and other devices with no register of their own live here entirely.
-- Dates are 'YYYY-MM-DD' text ('' unknown); times are Unix milliseconds.
CREATE TABLE equipment_models (
    id             BIGSERIAL PRIMARY KEY,
    name           TEXT    NOT NULL UNIQUE,
    kind           INTEGER NOT NULL,
    manufacturer   TEXT    NOT NULL DEFAULT '',
    video_channels INTEGER NOT NULL DEFAULT 0 CHECK (video_channels BETWEEN 0 AND 32),
    channel_names  TEXT    NOT NULL DEFAULT '',
    probes         INTEGER NOT NULL DEFAULT 0 CHECK (probes BETWEEN 0 AND 8),
    lock_ble       BOOLEAN NOT NULL DEFAULT FALSE,
    lock_4g        BOOLEAN NOT NULL DEFAULT FALSE,
    valve_sensors  INTEGER NOT NULL DEFAULT 0 CHECK (valve_sensors BETWEEN 0 AND 32),
    can_bus        BOOLEAN NOT NULL DEFAULT FALSE,
    remark         TEXT    NOT NULL DEFAULT '',
    created_at     BIGINT  NOT NULL,
    updated_at     BIGINT  NOT NULL
);

CREATE TABLE equipment (
    id           BIGSERIAL PRIMARY KEY,
    group_id     BIGINT  NOT NULL REFERENCES org_groups(id),
    kind         INTEGER NOT NULL,
    serial       TEXT    NOT NULL,
    model_id     BIGINT  REFERENCES equipment_models(id),
    manufacturer TEXT    NOT NULL DEFAULT '',
    install_date TEXT    NOT NULL DEFAULT '',
    warranty_end TEXT    NOT NULL DEFAULT '',
    state        INTEGER NOT NULL DEFAULT 1 CHECK (state BETWEEN 1 AND 3),
    car_id       BIGINT  REFERENCES cars(id) ON DELETE SET NULL,
    station_id   BIGINT  REFERENCES stations(id) ON DELETE SET NULL,
    notes        TEXT    NOT NULL DEFAULT '',
    created_by   BIGINT  NOT NULL DEFAULT 0,
    created_at   BIGINT  NOT NULL,
    updated_at   BIGINT  NOT NULL,
    UNIQUE (kind, serial)
);
CREATE INDEX equipment_car ON equipment (car_id);
CREATE INDEX equipment_station ON equipment (station_id);
CREATE INDEX equipment_model ON equipment (model_id);

-- +goose Down
DROP TABLE equipment;
DROP TABLE equipment_models;
