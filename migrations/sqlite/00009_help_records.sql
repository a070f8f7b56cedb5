-- +goose Up
-- Help requests (item 0xE3, docs/PROTOCOL.md) and the operator's answer (spec §4 help record deal).
-- Times are Unix milliseconds (UTC); coordinates micro-degrees WGS-84; speed 1/10 km/h. The plate and
-- group are those of the car when the driver asked, so a later move does not change who may see it.
-- A re-sent report carries the same terminal, request id and time: the unique key makes it a no-op.
CREATE TABLE help_records (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    car_id       INTEGER NOT NULL,
    terminal_id  INTEGER NOT NULL,
    group_id     INTEGER NOT NULL,
    car_number   TEXT    NOT NULL DEFAULT '',
    request_type INTEGER NOT NULL CHECK (request_type IN (1, 2)),
    request_id   INTEGER NOT NULL,
    request_time INTEGER NOT NULL,
    received_at  INTEGER NOT NULL,
    lat          INTEGER NOT NULL DEFAULT 0,
    lon          INTEGER NOT NULL DEFAULT 0,
    speed        INTEGER NOT NULL DEFAULT 0,
    address      TEXT    NOT NULL DEFAULT '',
    station_id   INTEGER NOT NULL DEFAULT 0,
    station_name TEXT    NOT NULL DEFAULT '',
    status       TEXT    NOT NULL DEFAULT 'pending',
    deal_type    INTEGER NOT NULL DEFAULT 0,
    dealt_by     INTEGER NOT NULL DEFAULT 0,
    dealt_by_name TEXT   NOT NULL DEFAULT '',
    dealt_at     INTEGER NOT NULL DEFAULT 0,
    command_id   INTEGER NOT NULL DEFAULT 0,
    result       TEXT    NOT NULL DEFAULT '',
    UNIQUE (terminal_id, request_id, request_time)
);
CREATE INDEX help_records_group_time ON help_records (group_id, request_time);
CREATE INDEX help_records_time ON help_records (request_time);

-- +goose Down
DROP TABLE help_records;
