-- +goose Up
-- Leave kinds are codes of the leaveKind code list (D90): the numbers records held (1 annual, 2 sick,
-- 3 personal, 4 other) become the seeded codes, so that every record keeps its meaning.
ALTER TABLE leave_records ADD COLUMN kind_code TEXT NOT NULL DEFAULT '';
UPDATE leave_records SET kind_code = CASE kind WHEN 1 THEN 'annual' WHEN 2 THEN 'sick' WHEN 3 THEN 'personal' ELSE 'other' END;
ALTER TABLE leave_records DROP COLUMN kind;
ALTER TABLE leave_records RENAME COLUMN kind_code TO kind;
CREATE INDEX leave_records_kind ON leave_records (kind);

-- What a terminal says of itself in 0x0107 (answer to 0x8107, D90): empty until it first answers;
-- attr_at is when it answered (ms), attr_asked_at when the platform last asked (ms).
ALTER TABLE terminals ADD COLUMN attr_type     INTEGER NOT NULL DEFAULT 0;
ALTER TABLE terminals ADD COLUMN attr_maker    TEXT    NOT NULL DEFAULT '';
ALTER TABLE terminals ADD COLUMN attr_model    TEXT    NOT NULL DEFAULT '';
ALTER TABLE terminals ADD COLUMN attr_device   TEXT    NOT NULL DEFAULT '';
ALTER TABLE terminals ADD COLUMN attr_iccid    TEXT    NOT NULL DEFAULT '';
ALTER TABLE terminals ADD COLUMN attr_hardware TEXT    NOT NULL DEFAULT '';
ALTER TABLE terminals ADD COLUMN attr_firmware TEXT    NOT NULL DEFAULT '';
ALTER TABLE terminals ADD COLUMN attr_gnss     INTEGER NOT NULL DEFAULT 0;
ALTER TABLE terminals ADD COLUMN attr_comm     INTEGER NOT NULL DEFAULT 0;
ALTER TABLE terminals ADD COLUMN attr_at       INTEGER NOT NULL DEFAULT 0;
ALTER TABLE terminals ADD COLUMN attr_asked_at INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE terminals DROP COLUMN attr_asked_at;
ALTER TABLE terminals DROP COLUMN attr_at;
ALTER TABLE terminals DROP COLUMN attr_comm;
ALTER TABLE terminals DROP COLUMN attr_gnss;
ALTER TABLE terminals DROP COLUMN attr_firmware;
ALTER TABLE terminals DROP COLUMN attr_hardware;
ALTER TABLE terminals DROP COLUMN attr_iccid;
ALTER TABLE terminals DROP COLUMN attr_device;
ALTER TABLE terminals DROP COLUMN attr_model;
ALTER TABLE terminals DROP COLUMN attr_maker;
ALTER TABLE terminals DROP COLUMN attr_type;
DROP INDEX leave_records_kind;
ALTER TABLE leave_records ADD COLUMN kind_num INTEGER NOT NULL DEFAULT 4;
UPDATE leave_records SET kind_num = CASE kind WHEN 'annual' THEN 1 WHEN 'sick' THEN 2 WHEN 'personal' THEN 3 ELSE 4 END;
ALTER TABLE leave_records DROP COLUMN kind;
ALTER TABLE leave_records RENAME COLUMN kind_num TO kind;
