-- +goose Up
-- Times are stored as Unix milliseconds (UTC) in INTEGER columns on both dialects.
CREATE TABLE org_groups (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    parent_id    INTEGER REFERENCES org_groups(id),
    path         TEXT    NOT NULL DEFAULT '',
    name         TEXT    NOT NULL,
    code         TEXT    UNIQUE,
    contact      TEXT    NOT NULL DEFAULT '',
    phone        TEXT    NOT NULL DEFAULT '',
    address      TEXT    NOT NULL DEFAULT '',
    remark       TEXT    NOT NULL DEFAULT '',
    title        TEXT    NOT NULL DEFAULT '',
    logo         TEXT    NOT NULL DEFAULT '',
    logo_type    TEXT    NOT NULL DEFAULT '',
    logo_version INTEGER NOT NULL DEFAULT 0,
    theme        TEXT    NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL
);
CREATE INDEX groups_path ON org_groups(path);
CREATE INDEX groups_parent ON org_groups(parent_id);

CREATE TABLE users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT    NOT NULL UNIQUE,
    nick_name     TEXT    NOT NULL DEFAULT '',
    password_hash TEXT    NOT NULL,
    phone         TEXT    NOT NULL DEFAULT '',
    email         TEXT    NOT NULL DEFAULT '',
    platform      BOOLEAN NOT NULL DEFAULT FALSE,
    group_id      INTEGER NOT NULL REFERENCES org_groups(id),
    status        INTEGER NOT NULL DEFAULT 1,
    expire_at     INTEGER,
    last_login_at INTEGER,
    language      TEXT    NOT NULL DEFAULT '',
    timezone      TEXT    NOT NULL DEFAULT '',
    created_at    INTEGER NOT NULL
);
CREATE INDEX users_group ON users(group_id);

CREATE TABLE roles (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT    NOT NULL,
    remark     TEXT    NOT NULL DEFAULT '',
    group_id   INTEGER NOT NULL REFERENCES org_groups(id),
    created_at INTEGER NOT NULL,
    UNIQUE (group_id, name)
);

CREATE TABLE role_codes (
    role_id INTEGER NOT NULL REFERENCES roles(id) ON DELETE CASCADE,
    code    TEXT    NOT NULL,
    PRIMARY KEY (role_id, code)
);

CREATE TABLE user_roles (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role_id INTEGER NOT NULL REFERENCES roles(id),
    PRIMARY KEY (user_id, role_id)
);
CREATE INDEX user_roles_role ON user_roles(role_id);

CREATE TABLE tokens (
    hash         TEXT    PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    revoked_at   INTEGER
);
CREATE INDEX tokens_user ON tokens(user_id);

CREATE TABLE operation_logs (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER NOT NULL DEFAULT 0,
    user_name  TEXT    NOT NULL DEFAULT '',
    group_id   INTEGER NOT NULL DEFAULT 0,
    group_path TEXT    NOT NULL DEFAULT '',
    module     TEXT    NOT NULL DEFAULT '',
    action     TEXT    NOT NULL DEFAULT '',
    target     TEXT    NOT NULL DEFAULT '',
    target_id  INTEGER NOT NULL DEFAULT 0,
    detail     TEXT    NOT NULL DEFAULT '',
    ip         TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);
CREATE INDEX operation_logs_created ON operation_logs(created_at);
CREATE INDEX operation_logs_group_path ON operation_logs(group_path);

CREATE TABLE error_logs (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    type       TEXT    NOT NULL DEFAULT '',
    code       TEXT    NOT NULL DEFAULT '',
    message    TEXT    NOT NULL DEFAULT '',
    url        TEXT    NOT NULL DEFAULT '',
    time       TEXT    NOT NULL DEFAULT '',
    user_id    INTEGER,
    ip         TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);

-- +goose Down
DROP TABLE error_logs;
DROP TABLE operation_logs;
DROP TABLE tokens;
DROP TABLE user_roles;
DROP TABLE role_codes;
DROP TABLE roles;
DROP TABLE users;
DROP TABLE org_groups;
