-- +goose Up
-- Firmware package bytes kept in the store rather than in one node's data folder (docs/DECISIONS.md
-- D136): every gateway node can send a package whichever node took the upload, and a backup of the store
-- carries the packages. Chunks are keyed by the package's SHA-256, so the upload writes them before the
-- package row exists (in several short transactions) and two packages with the same bytes share them.
-- A chunk is 64 sub-packages of 1000 bytes (the last one shorter); created_at lets the clean-up at
-- start tell an abandoned upload's chunks from one under way.
CREATE TABLE firmware_chunks (
    sha256     TEXT   NOT NULL,
    seq        INTEGER NOT NULL,
    data       BLOB  NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (sha256, seq)
);

-- +goose Down
DROP TABLE firmware_chunks;
