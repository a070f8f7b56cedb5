-- +goose Up
-- Sensor registry: a vendor's peripheral identification ID (hex) mapped to a decoder of the serial-port
-- pass-through (0x0900 types 0x41 / 0x42). See docs/PROTOCOL.md.
CREATE TABLE sensors (
    id             BIGSERIAL PRIMARY KEY,
    group_id       BIGINT  NOT NULL REFERENCES org_groups(id),
    name           TEXT    NOT NULL,
    length         BIGINT  NOT NULL DEFAULT 0 CHECK (length BETWEEN 0 AND 1024),
    identification TEXT    NOT NULL,
    decoder        TEXT    NOT NULL,
    remark         TEXT    NOT NULL DEFAULT '',
    created_at     BIGINT  NOT NULL,
    updated_at     BIGINT  NOT NULL,
    UNIQUE (group_id, identification)
);

-- +goose Down
DROP TABLE sensors;
