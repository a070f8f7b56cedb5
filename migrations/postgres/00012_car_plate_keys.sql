-- +goose Up
-- The comparison key of a car's plate (DECISIONS D30): 苏A12345 and 苏A·12345 are one car. The plate is
-- still shown as entered; plate_key is what duplicates and plate searches compare (internal/platform/plate:
-- separators removed, latin letters upper-cased). The registry writes it on every insert and update.
ALTER TABLE cars ADD COLUMN plate_key TEXT;
-- Backfill with the same expression as plate.SQL("plate") (registry plates hold only the middle dot).
UPDATE cars SET plate_key = REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(UPPER(plate), '·', ''), '・', ''), '•', ''), '.', ''), ' ', '');
-- Cars registered twice before this migration (苏A12345 and 苏A·12345) keep both rows: the later ones
-- get their id appended so the unique index can be built and a search still finds them all; saving
-- such a car is then refused until an operator gives it its true plate or deletes the double.
UPDATE cars SET plate_key = plate_key || '#' || CAST(id AS TEXT)
 WHERE EXISTS (SELECT 1 FROM cars AS c2 WHERE c2.plate_key = cars.plate_key AND c2.id < cars.id);
-- (not "cars_plate_key": PostgreSQL already gave that name to the index of the plate UNIQUE constraint)
CREATE UNIQUE INDEX cars_plate_key_uniq ON cars (plate_key);

-- +goose Down
DROP INDEX cars_plate_key_uniq;
ALTER TABLE cars DROP COLUMN plate_key;
