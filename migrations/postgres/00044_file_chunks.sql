-- +goose Up
-- Files kept in the store rather than in one node's data folder (docs/DECISIONS.md D136): firmware
-- packages and offline map tiles. Every node reads them whichever node took the upload, and a backup of
-- the store carries them. Chunks are keyed by the file's SHA-256 (internal/platform/blob), so an upload
-- writes them before the row naming the file exists, in several short transactions, and two rows naming
-- the same bytes share them. A chunk is 64 firmware sub-packages of 1000 bytes (the last one shorter);
-- created_at lets the clean-up at start tell an abandoned upload's chunks from one under way.
CREATE TABLE file_chunks (
    sha256     TEXT    NOT NULL,
    seq        INTEGER NOT NULL,
    data       BYTEA   NOT NULL,
    created_at BIGINT  NOT NULL,
    PRIMARY KEY (sha256, seq)
);

-- The offline map files (MBTiles) uploaded on the system settings page or found in <data>/tiles; each
-- node opens its own copy of the bytes, written from file_chunks into <data>/tiles/.cache/<sha256>.mbtiles.
CREATE TABLE map_tile_files (
    name        TEXT    PRIMARY KEY,
    sha256      TEXT    NOT NULL,
    size        BIGINT  NOT NULL,
    tiles       BIGINT  NOT NULL,
    uploaded_at BIGINT  NOT NULL,
    uploaded_by TEXT    NOT NULL DEFAULT ''
);

-- +goose Down
DROP TABLE map_tile_files;
DROP TABLE file_chunks;
