-- +goose Up
-- Firmware upgrade packages and their transfer to terminals over 0x8108 (issue 18, upgradePack, D64).
-- Packages are platform-wide; the file is kept in the data folder under firmware/<id>.bin, the row holds
-- its checksums (a push keeps the package's type, manufacturer and version: the history outlives a deleted package). A push is one user's request for a package to some terminals; a job is one terminal's
-- transfer of it (status 1 queued, 2 sending, 3 sent, 4 acknowledged with the terminal's 0x0108 result,
-- 5 failed with a reason key). Jobs carry the terminal's group so that the lists keep to a user's scope.
CREATE TABLE firmware_packages (
    id           BIGSERIAL PRIMARY KEY,
    kind         INTEGER NOT NULL,
    manufacturer TEXT    NOT NULL,
    version      TEXT    NOT NULL,
    file_name    TEXT    NOT NULL DEFAULT '',
    size         BIGINT  NOT NULL,
    sha256       TEXT    NOT NULL,
    md5          TEXT    NOT NULL,
    remark       TEXT    NOT NULL DEFAULT '',
    created_by   BIGINT  NOT NULL DEFAULT 0,
    created_at   BIGINT  NOT NULL,
    UNIQUE (kind, manufacturer, version)
);

CREATE TABLE firmware_pushes (
    id          BIGSERIAL PRIMARY KEY,
    package_id  BIGINT  NOT NULL,
    kind        INTEGER NOT NULL,
    manufacturer TEXT   NOT NULL,
    version     TEXT    NOT NULL,
    group_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    user_name   TEXT    NOT NULL DEFAULT '',
    terminals   INTEGER NOT NULL,
    expires_at  BIGINT  NOT NULL,
    created_at  BIGINT  NOT NULL
);
CREATE INDEX firmware_pushes_created ON firmware_pushes(created_at);

CREATE TABLE firmware_jobs (
    id          BIGSERIAL PRIMARY KEY,
    push_id     BIGINT  NOT NULL REFERENCES firmware_pushes(id) ON DELETE CASCADE,
    package_id  BIGINT  NOT NULL,
    terminal_id BIGINT  NOT NULL,
    group_id    BIGINT  NOT NULL,
    status      INTEGER NOT NULL,
    acked       INTEGER NOT NULL DEFAULT 0,
    total       INTEGER NOT NULL DEFAULT 0,
    attempts    INTEGER NOT NULL DEFAULT 0,
    result      INTEGER NOT NULL DEFAULT -1,
    reason      TEXT    NOT NULL DEFAULT '',
    next_at     BIGINT  NOT NULL,
    expires_at  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL
);
CREATE INDEX firmware_jobs_status ON firmware_jobs(status, next_at);
CREATE INDEX firmware_jobs_terminal ON firmware_jobs(terminal_id);
CREATE INDEX firmware_jobs_push ON firmware_jobs(push_id);

-- +goose Down
DROP TABLE firmware_jobs;
DROP TABLE firmware_pushes;
DROP TABLE firmware_packages;
