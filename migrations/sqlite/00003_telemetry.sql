-- +goose Up
-- History: positions and tank states as time series, raw frames, downlink commands.
-- Times are Unix milliseconds (UTC); coordinates micro-degrees WGS-84; speed 1/10 km/h.
-- A terminal re-sends what was not acknowledged, so the primary keys make a repeated report a no-op.
CREATE TABLE positions (
    car_id      INTEGER NOT NULL,
    t           INTEGER NOT NULL,
    terminal_id INTEGER NOT NULL,
    received_at INTEGER NOT NULL,
    lat         INTEGER NOT NULL,
    lon         INTEGER NOT NULL,
    altitude    INTEGER NOT NULL DEFAULT 0,
    speed       INTEGER NOT NULL DEFAULT 0,
    direction   INTEGER NOT NULL DEFAULT 0,
    alarm       INTEGER NOT NULL DEFAULT 0,
    status      INTEGER NOT NULL DEFAULT 0,
    mileage     INTEGER,
    fuel        INTEGER,
    signal      INTEGER NOT NULL DEFAULT 0,
    satellites  INTEGER NOT NULL DEFAULT 0,
    blind       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (car_id, t, terminal_id)
) WITHOUT ROWID;

CREATE TABLE tank_states (
    car_id      INTEGER NOT NULL,
    t           INTEGER NOT NULL,
    terminal_id INTEGER NOT NULL,
    lock_state  TEXT    NOT NULL DEFAULT '',
    seal        INTEGER NOT NULL DEFAULT 0,
    levels      TEXT    NOT NULL DEFAULT '',
    help        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (car_id, t, terminal_id)
) WITHOUT ROWID;

CREATE TABLE raw_frames (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    terminal_id INTEGER NOT NULL,
    car_id      INTEGER NOT NULL DEFAULT 0,
    phone       TEXT    NOT NULL,
    received_at INTEGER NOT NULL,
    msg_id      INTEGER NOT NULL,
    serial      INTEGER NOT NULL,
    down        INTEGER NOT NULL DEFAULT 0,
    data        BLOB    NOT NULL
);
CREATE INDEX raw_frames_terminal ON raw_frames(terminal_id, received_at);
CREATE INDEX raw_frames_car ON raw_frames(car_id, received_at);

CREATE TABLE commands (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    terminal_id INTEGER NOT NULL,
    car_id      INTEGER NOT NULL DEFAULT 0,
    phone       TEXT    NOT NULL,
    kind        TEXT    NOT NULL,
    msg_id      INTEGER NOT NULL,
    serial      INTEGER NOT NULL DEFAULT 0,
    params      TEXT    NOT NULL DEFAULT '',
    user_id     INTEGER NOT NULL DEFAULT 0,
    status      TEXT    NOT NULL,
    result      INTEGER,
    reply       TEXT    NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL,
    done_at     INTEGER
);
CREATE INDEX commands_terminal ON commands(terminal_id, created_at);
CREATE INDEX commands_car ON commands(car_id, created_at);

-- +goose Down
DROP TABLE commands;
DROP TABLE raw_frames;
DROP TABLE tank_states;
DROP TABLE positions;
