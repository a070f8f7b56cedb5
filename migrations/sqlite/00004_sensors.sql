-- +goose Up
-- Sensor registry: a vendor's peripheral identification ID (hex) mapped to a decoder of the serial-port
-- pass-through (0x0900 types 0x41 / 0x42). See docs/PROTOCOL.md.
CREATE TABLE sensors (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    group_id       INTEGER NOT NULL REFERENCES org_groups(id),
    name           TEXT    NOT NULL,
    length         INTEGER NOT NULL DEFAULT 0 CHECK (length BETWEEN 0 AND 1024),
    identification TEXT    NOT NULL,
    decoder        TEXT    NOT NULL,
    remark         TEXT    NOT NULL DEFAULT '',
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    UNIQUE (group_id, identification)
);

-- +goose Down
DROP TABLE sensors;
