-- +goose Up
-- Settings (issue 18, D66–D67): the code lists other pages read, the platform settings an administrator
-- changes at run time, each session's address and client (the signed-in sessions list), and a user's
-- own console preferences.
CREATE TABLE code_items (
    id         BIGSERIAL PRIMARY KEY,
    type       TEXT    NOT NULL,
    code       TEXT    NOT NULL,
    label_zh   TEXT    NOT NULL,
    label_tw   TEXT    NOT NULL DEFAULT '',
    label_en   TEXT    NOT NULL DEFAULT '',
    sort       INTEGER NOT NULL DEFAULT 0,
    enabled    BOOLEAN NOT NULL DEFAULT TRUE,
    builtin    BOOLEAN NOT NULL DEFAULT FALSE,
    updated_at BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX code_items_type_code ON code_items (type, code);

CREATE TABLE platform_settings (
    key        TEXT    PRIMARY KEY,
    value      TEXT    NOT NULL,
    updated_at BIGINT NOT NULL,
    updated_by TEXT    NOT NULL DEFAULT ''
);

ALTER TABLE tokens ADD COLUMN ip TEXT NOT NULL DEFAULT '';
ALTER TABLE tokens ADD COLUMN client TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN prefs TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE users DROP COLUMN prefs;
ALTER TABLE tokens DROP COLUMN client;
ALTER TABLE tokens DROP COLUMN ip;
DROP TABLE platform_settings;
DROP TABLE code_items;
