-- +goose Up
-- Leave kinds are codes of the leaveKind code list (D90): the numbers records held (1 annual, 2 sick,
-- 3 personal, 4 other) become the seeded codes, so that every record keeps its meaning.
ALTER TABLE leave_records ALTER COLUMN kind TYPE TEXT
    USING CASE kind WHEN 1 THEN 'annual' WHEN 2 THEN 'sick' WHEN 3 THEN 'personal' ELSE 'other' END;
CREATE INDEX leave_records_kind ON leave_records (kind);

-- What a terminal says of itself in 0x0107 (answer to 0x8107, D90): empty until it first answers;
-- attr_at is when it answered (ms), attr_asked_at when the platform last asked (ms).
ALTER TABLE terminals
    ADD COLUMN attr_type     INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN attr_maker    TEXT    NOT NULL DEFAULT '',
    ADD COLUMN attr_model    TEXT    NOT NULL DEFAULT '',
    ADD COLUMN attr_device   TEXT    NOT NULL DEFAULT '',
    ADD COLUMN attr_iccid    TEXT    NOT NULL DEFAULT '',
    ADD COLUMN attr_hardware TEXT    NOT NULL DEFAULT '',
    ADD COLUMN attr_firmware TEXT    NOT NULL DEFAULT '',
    ADD COLUMN attr_gnss     INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN attr_comm     INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN attr_at       BIGINT  NOT NULL DEFAULT 0,
    ADD COLUMN attr_asked_at BIGINT  NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE terminals
    DROP COLUMN attr_type, DROP COLUMN attr_maker, DROP COLUMN attr_model, DROP COLUMN attr_device,
    DROP COLUMN attr_iccid, DROP COLUMN attr_hardware, DROP COLUMN attr_firmware, DROP COLUMN attr_gnss,
    DROP COLUMN attr_comm, DROP COLUMN attr_at, DROP COLUMN attr_asked_at;
DROP INDEX leave_records_kind;
ALTER TABLE leave_records ALTER COLUMN kind TYPE INTEGER
    USING CASE kind WHEN 'annual' THEN 1 WHEN 'sick' THEN 2 WHEN 'personal' THEN 3 ELSE 4 END;
