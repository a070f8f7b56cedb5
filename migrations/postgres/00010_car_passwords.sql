-- +goose Up
-- Local (offline) unlock passwords of the vehicles' e-locks (item 0xE5, docs/PROTOCOL.md) and the
-- record of every reveal (DECISIONS D21). Times are Unix milliseconds (UTC).
-- The password is kept in clear: the dispatcher must read it back to a driver, so a one-way hash would
-- not do; the only way to read it is POST /base-info-app/carPassword/view, which records the reveal.
-- sync_state: pending (not yet accepted by the terminal: offline, no terminal, in flight), ok, failed
-- (the terminal refused or did not answer); sync_reason says why, command_id is the command log row.
CREATE TABLE car_passwords (
    car_id       BIGINT  PRIMARY KEY,
    password     TEXT    NOT NULL CHECK (length(password) = 6),
    set_by       BIGINT  NOT NULL DEFAULT 0,
    set_by_name  TEXT    NOT NULL DEFAULT '',
    set_at       BIGINT  NOT NULL,
    sync_state   TEXT    NOT NULL DEFAULT 'pending' CHECK (sync_state IN ('pending', 'ok', 'failed')),
    sync_reason  TEXT    NOT NULL DEFAULT '',
    command_id   BIGINT  NOT NULL DEFAULT 0,
    synced_at    BIGINT  NOT NULL DEFAULT 0
);

-- One row per reveal. Plate and group are those of the car when it was viewed (history: a later move
-- of the car does not change who may see the record); the user name likewise.
CREATE TABLE password_views (
    id         BIGSERIAL PRIMARY KEY,
    car_id     BIGINT  NOT NULL,
    plate      TEXT    NOT NULL DEFAULT '',
    group_id   BIGINT  NOT NULL,
    group_path TEXT    NOT NULL,
    user_id    BIGINT  NOT NULL,
    user_name  TEXT    NOT NULL DEFAULT '',
    viewed_at  BIGINT  NOT NULL,
    client_ip  TEXT    NOT NULL DEFAULT '',
    reason     TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX password_views_path_time ON password_views (group_path, viewed_at);
CREATE INDEX password_views_time ON password_views (viewed_at);

-- +goose Down
DROP TABLE password_views;
DROP TABLE car_passwords;
