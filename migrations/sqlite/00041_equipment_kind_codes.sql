-- +goose Up
-- Device kinds are codes of the equipmentKind code list (D95): the numbers devices and models held
-- (1 terminal, 2 probe, 3 lock, 4 camera, 5 gauge, 6 other) become the seeded codes, so that every row
-- keeps its meaning. equipment's kind is in its UNIQUE (kind, serial), which SQLite cannot drop a column
-- from: the table is made again; equipment_models' kind is added, filled, dropped and renamed.
CREATE TABLE equipment_new (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    group_id     INTEGER NOT NULL REFERENCES org_groups(id),
    kind         TEXT    NOT NULL,
    serial       TEXT    NOT NULL,
    model_id     INTEGER REFERENCES equipment_models(id),
    manufacturer TEXT    NOT NULL DEFAULT '',
    install_date TEXT    NOT NULL DEFAULT '',
    warranty_end TEXT    NOT NULL DEFAULT '',
    state        INTEGER NOT NULL DEFAULT 1 CHECK (state BETWEEN 1 AND 3),
    car_id       INTEGER REFERENCES cars(id) ON DELETE SET NULL,
    station_id   INTEGER REFERENCES stations(id) ON DELETE SET NULL,
    notes        TEXT    NOT NULL DEFAULT '',
    created_by   INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    UNIQUE (kind, serial)
);
INSERT INTO equipment_new (id, group_id, kind, serial, model_id, manufacturer, install_date, warranty_end, state, car_id,
                           station_id, notes, created_by, created_at, updated_at)
SELECT id, group_id,
       CASE kind WHEN 1 THEN 'terminal' WHEN 2 THEN 'probe' WHEN 3 THEN 'lock' WHEN 4 THEN 'camera' WHEN 5 THEN 'gauge' ELSE 'other' END,
       serial, model_id, manufacturer, install_date, warranty_end, state, car_id, station_id, notes, created_by, created_at, updated_at
  FROM equipment;
DROP TABLE equipment;
ALTER TABLE equipment_new RENAME TO equipment;
CREATE INDEX equipment_car ON equipment (car_id);
CREATE INDEX equipment_station ON equipment (station_id);
CREATE INDEX equipment_model ON equipment (model_id);

ALTER TABLE equipment_models ADD COLUMN kind_code TEXT NOT NULL DEFAULT '';
UPDATE equipment_models SET kind_code =
    CASE kind WHEN 1 THEN 'terminal' WHEN 2 THEN 'probe' WHEN 3 THEN 'lock' WHEN 4 THEN 'camera' WHEN 5 THEN 'gauge' ELSE 'other' END;
ALTER TABLE equipment_models DROP COLUMN kind;
ALTER TABLE equipment_models RENAME COLUMN kind_code TO kind;

-- The operation log named a device's kind by its catalogue key (field.equipment.kind.N), whose texts
-- are gone: the rows name it by the labels they rendered, in the three languages (audit.Label).
UPDATE operation_logs SET detail =
    REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(detail,
        '{"k":"field.equipment.kind.1"}', '{"l":["车载终端","車載終端","Terminal"]}'),
        '{"k":"field.equipment.kind.2"}', '{"l":["液位探棒","液位探棒","Level probe"]}'),
        '{"k":"field.equipment.kind.3"}', '{"l":["电子锁","電子鎖","Electronic lock"]}'),
        '{"k":"field.equipment.kind.4"}', '{"l":["摄像头","攝影機","Camera"]}'),
        '{"k":"field.equipment.kind.5"}', '{"l":["站点液位仪","站點液位儀","Station tank gauge"]}'),
        '{"k":"field.equipment.kind.6"}', '{"l":["其他设备","其他設備","Other device"]}')
 WHERE module = 'equipment' AND detail LIKE '%field.equipment.kind.%';

-- +goose Down
-- Kinds added since have no number: they become 6 (other); a serial two of them share then fails the
-- UNIQUE (kind, serial), to be settled by hand. Log rows keep their labels.
ALTER TABLE equipment_models ADD COLUMN kind_num INTEGER NOT NULL DEFAULT 6;
UPDATE equipment_models SET kind_num =
    CASE kind WHEN 'terminal' THEN 1 WHEN 'probe' THEN 2 WHEN 'lock' THEN 3 WHEN 'camera' THEN 4 WHEN 'gauge' THEN 5 ELSE 6 END;
ALTER TABLE equipment_models DROP COLUMN kind;
ALTER TABLE equipment_models RENAME COLUMN kind_num TO kind;

CREATE TABLE equipment_old (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    group_id     INTEGER NOT NULL REFERENCES org_groups(id),
    kind         INTEGER NOT NULL,
    serial       TEXT    NOT NULL,
    model_id     INTEGER REFERENCES equipment_models(id),
    manufacturer TEXT    NOT NULL DEFAULT '',
    install_date TEXT    NOT NULL DEFAULT '',
    warranty_end TEXT    NOT NULL DEFAULT '',
    state        INTEGER NOT NULL DEFAULT 1 CHECK (state BETWEEN 1 AND 3),
    car_id       INTEGER REFERENCES cars(id) ON DELETE SET NULL,
    station_id   INTEGER REFERENCES stations(id) ON DELETE SET NULL,
    notes        TEXT    NOT NULL DEFAULT '',
    created_by   INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    UNIQUE (kind, serial)
);
INSERT INTO equipment_old (id, group_id, kind, serial, model_id, manufacturer, install_date, warranty_end, state, car_id,
                           station_id, notes, created_by, created_at, updated_at)
SELECT id, group_id,
       CASE kind WHEN 'terminal' THEN 1 WHEN 'probe' THEN 2 WHEN 'lock' THEN 3 WHEN 'camera' THEN 4 WHEN 'gauge' THEN 5 ELSE 6 END,
       serial, model_id, manufacturer, install_date, warranty_end, state, car_id, station_id, notes, created_by, created_at, updated_at
  FROM equipment;
DROP TABLE equipment;
ALTER TABLE equipment_old RENAME TO equipment;
CREATE INDEX equipment_car ON equipment (car_id);
CREATE INDEX equipment_station ON equipment (station_id);
CREATE INDEX equipment_model ON equipment (model_id);
