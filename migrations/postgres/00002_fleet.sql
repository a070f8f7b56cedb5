-- +goose Up
-- Fleet registry: vehicles, SIM cards, terminals, binding history, video channels.
-- Times are Unix milliseconds (UTC) in BIGINT columns, as in 00001.
CREATE TABLE cars (
    id                   BIGSERIAL PRIMARY KEY,
    group_id             BIGINT  NOT NULL REFERENCES org_groups(id),
    plate                TEXT    NOT NULL UNIQUE,
    plate_colour         TEXT    NOT NULL DEFAULT '',
    driver_name          TEXT    NOT NULL DEFAULT '',
    driver_phone         TEXT    NOT NULL DEFAULT '',
    owner                TEXT    NOT NULL DEFAULT '',
    trailer_no           TEXT    NOT NULL DEFAULT '',
    compartments         BIGINT  NOT NULL CHECK (compartments BETWEEN 1 AND 8),
    vehicle_class        TEXT    NOT NULL DEFAULT '',
    fuel_type            BIGINT  NOT NULL DEFAULT 0 CHECK (fuel_type BETWEEN 0 AND 3),
    loading_method       BIGINT  NOT NULL DEFAULT 1 CHECK (loading_method IN (1, 2)),
    small_manhole_covers BIGINT  NOT NULL DEFAULT 0 CHECK (small_manhole_covers BETWEEN 0 AND 8),
    manhole_covers       BIGINT  NOT NULL DEFAULT 0 CHECK (manhole_covers BETWEEN 0 AND 8),
    oil_discharge_valves BIGINT  NOT NULL DEFAULT 0 CHECK (oil_discharge_valves BETWEEN 0 AND 8),
    bottom_valves        BIGINT  NOT NULL DEFAULT 0 CHECK (bottom_valves BETWEEN 0 AND 8),
    speed_limit          BIGINT  NOT NULL DEFAULT 0,
    parking_minutes      BIGINT  NOT NULL DEFAULT 0,
    offline_minutes      BIGINT  NOT NULL DEFAULT 0,
    safe_volume          BIGINT  NOT NULL DEFAULT 0,
    tank_height          BIGINT  NOT NULL DEFAULT 0,
    probe_lengths        TEXT    NOT NULL DEFAULT '',
    vin                  TEXT    UNIQUE,
    body_colour          TEXT    NOT NULL DEFAULT '',
    remark               TEXT    NOT NULL DEFAULT '',
    created_at           BIGINT  NOT NULL,
    updated_at           BIGINT  NOT NULL
);
CREATE INDEX cars_group ON cars(group_id);

CREATE TABLE sims (
    id         BIGSERIAL PRIMARY KEY,
    group_id   BIGINT  NOT NULL REFERENCES org_groups(id),
    iccid      TEXT    NOT NULL UNIQUE,
    msisdn     TEXT    NOT NULL UNIQUE,
    operator   TEXT    NOT NULL DEFAULT '',
    status     BIGINT  NOT NULL DEFAULT 1,
    expire_at  BIGINT,
    remark     TEXT    NOT NULL DEFAULT '',
    created_at BIGINT  NOT NULL
);
CREATE INDEX sims_group ON sims(group_id);

CREATE TABLE terminals (
    id           BIGSERIAL PRIMARY KEY,
    group_id     BIGINT  NOT NULL REFERENCES org_groups(id),
    phone        TEXT    NOT NULL UNIQUE,
    device_id    TEXT    NOT NULL DEFAULT '',
    manufacturer TEXT    NOT NULL DEFAULT '',
    model        TEXT    NOT NULL DEFAULT '',
    protocol     BIGINT  NOT NULL DEFAULT 2019 CHECK (protocol IN (2011, 2013, 2019)),
    car_id       BIGINT  UNIQUE REFERENCES cars(id),
    sim_id       BIGINT  UNIQUE REFERENCES sims(id),
    auth_code    TEXT    NOT NULL DEFAULT '',
    status       BIGINT  NOT NULL DEFAULT 1,
    remark       TEXT    NOT NULL DEFAULT '',
    created_at   BIGINT  NOT NULL
);
CREATE INDEX terminals_group ON terminals(group_id);

CREATE TABLE terminal_bindings (
    id          BIGSERIAL PRIMARY KEY,
    terminal_id BIGINT  NOT NULL REFERENCES terminals(id) ON DELETE CASCADE,
    car_id      BIGINT,
    sim_id      BIGINT,
    bound_at    BIGINT  NOT NULL,
    unbound_at  BIGINT,
    user_id     BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX terminal_bindings_terminal ON terminal_bindings(terminal_id);

CREATE TABLE car_video_channels (
    car_id     BIGINT  NOT NULL REFERENCES cars(id) ON DELETE CASCADE,
    channel_no BIGINT  NOT NULL CHECK (channel_no BETWEEN 1 AND 32),
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
