-- +goose Up
-- History: positions and tank states as time series, raw frames, downlink commands.
-- Times are Unix milliseconds (UTC); coordinates micro-degrees WGS-84; speed 1/10 km/h.
-- A terminal re-sends what was not acknowledged, so the primary keys make a repeated report a no-op.
CREATE TABLE positions (
    car_id      BIGINT  NOT NULL,
    t           BIGINT  NOT NULL,
    terminal_id BIGINT  NOT NULL,
    received_at BIGINT  NOT NULL,
    lat         BIGINT  NOT NULL,
    lon         BIGINT  NOT NULL,
    altitude    BIGINT  NOT NULL DEFAULT 0,
    speed       BIGINT  NOT NULL DEFAULT 0,
    direction   BIGINT  NOT NULL DEFAULT 0,
    alarm       BIGINT  NOT NULL DEFAULT 0,
    status      BIGINT  NOT NULL DEFAULT 0,
    mileage     BIGINT ,
    fuel        BIGINT ,
    signal      BIGINT  NOT NULL DEFAULT 0,
    satellites  BIGINT  NOT NULL DEFAULT 0,
    blind       BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (car_id, t, terminal_id)
);

CREATE TABLE tank_states (
    car_id      BIGINT  NOT NULL,
    t           BIGINT  NOT NULL,
    terminal_id BIGINT  NOT NULL,
    lock_state  TEXT    NOT NULL DEFAULT '',
    seal        BIGINT  NOT NULL DEFAULT 0,
    levels      TEXT    NOT NULL DEFAULT '',
    help        BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (car_id, t, terminal_id)
);

CREATE TABLE raw_frames (
    id          BIGSERIAL PRIMARY KEY,
    terminal_id BIGINT  NOT NULL,
    car_id      BIGINT  NOT NULL DEFAULT 0,
    phone       TEXT    NOT NULL,
    received_at BIGINT  NOT NULL,
    msg_id      BIGINT  NOT NULL,
    serial      BIGINT  NOT NULL,
    down        BIGINT  NOT NULL DEFAULT 0,
    data        BYTEA   NOT NULL
);
CREATE INDEX raw_frames_terminal ON raw_frames(terminal_id, received_at);
CREATE INDEX raw_frames_car ON raw_frames(car_id, received_at);

CREATE TABLE commands (
    id          BIGSERIAL PRIMARY KEY,
    terminal_id BIGINT  NOT NULL,
    car_id      BIGINT  NOT NULL DEFAULT 0,
    phone       TEXT    NOT NULL,
    kind        TEXT    NOT NULL,
    msg_id      BIGINT  NOT NULL,
    serial      BIGINT  NOT NULL DEFAULT 0,
    params      TEXT    NOT NULL DEFAULT '',
    user_id     BIGINT  NOT NULL DEFAULT 0,
    status      TEXT    NOT NULL,
    result      BIGINT ,
    reply       TEXT    NOT NULL DEFAULT '',
    created_at  BIGINT  NOT NULL,
    done_at     BIGINT 
);
CREATE INDEX commands_terminal ON commands(terminal_id, created_at);
CREATE INDEX commands_car ON commands(car_id, created_at);

-- +goose Down
DROP TABLE commands;
DROP TABLE raw_frames;
DROP TABLE tank_states;
DROP TABLE positions;
