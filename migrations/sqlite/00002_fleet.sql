-- +goose Up
-- Fleet registry: vehicles, SIM cards, terminals, binding history, video channels.
-- Times are Unix milliseconds (UTC) in INTEGER columns, as in 00001.
CREATE TABLE cars (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
    group_id             INTEGER NOT NULL REFERENCES org_groups(id),
    plate                TEXT    NOT NULL UNIQUE,
    plate_colour         TEXT    NOT NULL DEFAULT '',
    driver_name          TEXT    NOT NULL DEFAULT '',
    driver_phone         TEXT    NOT NULL DEFAULT '',
    owner                TEXT    NOT NULL DEFAULT '',
    trailer_no           TEXT    NOT NULL DEFAULT '',
    compartments         INTEGER NOT NULL CHECK (compartments BETWEEN 1 AND 8),
    vehicle_class        TEXT    NOT NULL DEFAULT '',
    fuel_type            INTEGER NOT NULL DEFAULT 0 CHECK (fuel_type BETWEEN 0 AND 3),
    loading_method       INTEGER NOT NULL DEFAULT 1 CHECK (loading_method IN (1, 2)),
    small_manhole_covers INTEGER NOT NULL DEFAULT 0 CHECK (small_manhole_covers BETWEEN 0 AND 8),
    manhole_covers       INTEGER NOT NULL DEFAULT 0 CHECK (manhole_covers BETWEEN 0 AND 8),
    oil_discharge_valves INTEGER NOT NULL DEFAULT 0 CHECK (oil_discharge_valves BETWEEN 0 AND 8),
    bottom_valves        INTEGER NOT NULL DEFAULT 0 CHECK (bottom_valves BETWEEN 0 AND 8),
    speed_limit          INTEGER NOT NULL DEFAULT 0,
    parking_minutes      INTEGER NOT NULL DEFAULT 0,
    offline_minutes      INTEGER NOT NULL DEFAULT 0,
    safe_volume          INTEGER NOT NULL DEFAULT 0,
    tank_height          INTEGER NOT NULL DEFAULT 0,
    probe_lengths        TEXT    NOT NULL DEFAULT '',
    vin                  TEXT    UNIQUE,
    body_colour          TEXT    NOT NULL DEFAULT '',
    remark               TEXT    NOT NULL DEFAULT '',
    created_at           INTEGER NOT NULL,
    updated_at           INTEGER NOT NULL
);
CREATE INDEX cars_group ON cars(group_id);

CREATE TABLE sims (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    group_id   INTEGER NOT NULL REFERENCES org_groups(id),
    iccid      TEXT    NOT NULL UNIQUE,
    msisdn     TEXT    NOT NULL UNIQUE,
    operator   TEXT    NOT NULL DEFAULT '',
    status     INTEGER NOT NULL DEFAULT 1,
    expire_at  INTEGER,
    remark     TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);
CREATE INDEX sims_group ON sims(group_id);

CREATE TABLE terminals (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    group_id     INTEGER NOT NULL REFERENCES org_groups(id),
    phone        TEXT    NOT NULL UNIQUE,
    device_id    TEXT    NOT NULL DEFAULT '',
    manufacturer TEXT    NOT NULL DEFAULT '',
    model        TEXT    NOT NULL DEFAULT '',
    protocol     INTEGER NOT NULL DEFAULT 2019 CHECK (protocol IN (2011, 2013, 2019)),
    car_id       INTEGER UNIQUE REFERENCES cars(id),
    sim_id       INTEGER UNIQUE REFERENCES sims(id),
    auth_code    TEXT    NOT NULL DEFAULT '',
    status       INTEGER NOT NULL DEFAULT 1,
    remark       TEXT    NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL
);
CREATE INDEX terminals_group ON terminals(group_id);

CREATE TABLE terminal_bindings (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    terminal_id INTEGER NOT NULL REFERENCES terminals(id) ON DELETE CASCADE,
    car_id      INTEGER,
    sim_id      INTEGER,
    bound_at    INTEGER NOT NULL,
    unbound_at  INTEGER,
    user_id     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX terminal_bindings_terminal ON terminal_bindings(terminal_id);

CREATE TABLE car_video_channels (
    car_id     INTEGER NOT NULL REFERENCES cars(id) ON DELETE CASCADE,
    channel_no INTEGER NOT NULL CHECK (channel_no BETWEEN 1 AND 32),
    name       TEXT    NOT NULL DEFAULT '',
    enabled    BOOLEAN NOT NULL DEFAULT TRUE,
    PRIMARY KEY (car_id, channel_no)
);

-- +goose Down
DROP TABLE car_video_channels;
DROP TABLE terminal_bindings;
DROP TABLE terminals;
DROP TABLE sims;
DROP TABLE cars;
