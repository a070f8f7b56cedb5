-- +goose Up
-- Device kinds are codes of the equipmentKind code list (D95): the numbers devices and models held
-- (1 terminal, 2 probe, 3 lock, 4 camera, 5 gauge, 6 other) become the seeded codes, so that every row
-- keeps its meaning. The UNIQUE (kind, serial) of equipment is rebuilt with the column.
ALTER TABLE equipment ALTER COLUMN kind TYPE TEXT USING
    CASE kind WHEN 1 THEN 'terminal' WHEN 2 THEN 'probe' WHEN 3 THEN 'lock' WHEN 4 THEN 'camera' WHEN 5 THEN 'gauge' ELSE 'other' END;
ALTER TABLE equipment_models ALTER COLUMN kind TYPE TEXT USING
    CASE kind WHEN 1 THEN 'terminal' WHEN 2 THEN 'probe' WHEN 3 THEN 'lock' WHEN 4 THEN 'camera' WHEN 5 THEN 'gauge' ELSE 'other' END;

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
ALTER TABLE equipment_models ALTER COLUMN kind TYPE INTEGER USING
    CASE kind WHEN 'terminal' THEN 1 WHEN 'probe' THEN 2 WHEN 'lock' THEN 3 WHEN 'camera' THEN 4 WHEN 'gauge' THEN 5 ELSE 6 END;
ALTER TABLE equipment ALTER COLUMN kind TYPE INTEGER USING
    CASE kind WHEN 'terminal' THEN 1 WHEN 'probe' THEN 2 WHEN 'lock' THEN 3 WHEN 'camera' THEN 4 WHEN 'gauge' THEN 5 ELSE 6 END;
