-- +goose Up
-- History at scale (issue 19, DECISIONS D9B): the per-report history tables become range-partitioned
-- by time, one partition per UTC day (<table>_pYYYYMMDD), plus a default partition (<table>_default)
-- that takes what no day partition covers: a report stamped by a terminal with a wrong clock, or a
-- day the binary has not created yet, is stored, never refused. The binary creates the days ahead and
-- drops the days past retention (internal/telemetry/partitions.go); this migration converts the
-- tables in place, keeping every row: a partition for every day that holds data (up to ten years
-- back, a week ahead), the rest into the default partition.
-- Every unique key must hold the partition key: positions, tank_states and level_readings already do
-- (car_id, t, …); raw_frames' key becomes (id, received_at). No foreign key points at these tables.
-- The trend rollup triggers (00018) are created again on the new tables only after the copy, as the
-- copied rows are already counted in the rollups.

ALTER TABLE positions RENAME TO positions_unpart;
ALTER INDEX positions_pkey RENAME TO positions_unpart_pkey;
CREATE TABLE positions (LIKE positions_unpart INCLUDING DEFAULTS) PARTITION BY RANGE (t);
ALTER TABLE positions ADD CONSTRAINT positions_pkey PRIMARY KEY (car_id, t, terminal_id);
CREATE TABLE positions_default PARTITION OF positions DEFAULT;

ALTER TABLE tank_states RENAME TO tank_states_unpart;
ALTER INDEX tank_states_pkey RENAME TO tank_states_unpart_pkey;
CREATE TABLE tank_states (LIKE tank_states_unpart INCLUDING DEFAULTS) PARTITION BY RANGE (t);
ALTER TABLE tank_states ADD CONSTRAINT tank_states_pkey PRIMARY KEY (car_id, t, terminal_id);
CREATE TABLE tank_states_default PARTITION OF tank_states DEFAULT;

ALTER TABLE level_readings RENAME TO level_readings_unpart;
ALTER INDEX level_readings_pkey RENAME TO level_readings_unpart_pkey;
CREATE TABLE level_readings (LIKE level_readings_unpart INCLUDING DEFAULTS) PARTITION BY RANGE (t);
ALTER TABLE level_readings ADD CONSTRAINT level_readings_pkey PRIMARY KEY (car_id, t, compartment);
CREATE TABLE level_readings_default PARTITION OF level_readings DEFAULT;

ALTER TABLE raw_frames RENAME TO raw_frames_unpart;
ALTER INDEX raw_frames_pkey RENAME TO raw_frames_unpart_pkey;
ALTER INDEX raw_frames_terminal RENAME TO raw_frames_unpart_terminal;
ALTER SEQUENCE raw_frames_id_seq OWNED BY NONE;
CREATE TABLE raw_frames (LIKE raw_frames_unpart INCLUDING DEFAULTS) PARTITION BY RANGE (received_at);
ALTER SEQUENCE raw_frames_id_seq OWNED BY raw_frames.id;
ALTER TABLE raw_frames ADD CONSTRAINT raw_frames_pkey PRIMARY KEY (id, received_at);
CREATE INDEX raw_frames_terminal ON raw_frames (terminal_id, received_at);
CREATE TABLE raw_frames_default PARTITION OF raw_frames DEFAULT;

-- +goose StatementBegin
DO $$
DECLARE
    tb   TEXT;
    col  TEXT;
    d    BIGINT;
    lo   BIGINT := (EXTRACT(EPOCH FROM now())::BIGINT / 86400 - 3650) * 86400000;
    hi   BIGINT := (EXTRACT(EPOCH FROM now())::BIGINT / 86400 + 8) * 86400000;
BEGIN
    FOREACH tb IN ARRAY ARRAY['positions', 'tank_states', 'level_readings', 'raw_frames'] LOOP
        col := CASE tb WHEN 'raw_frames' THEN 'received_at' ELSE 't' END;
        FOR d IN EXECUTE format('SELECT DISTINCT %I / 86400000 FROM %I WHERE %I >= $1 AND %I < $2 ORDER BY 1',
                col, tb || '_unpart', col, col) USING lo, hi LOOP
            EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%s) TO (%s)',
                tb || '_p' || to_char(to_timestamp(d * 86400) AT TIME ZONE 'UTC', 'YYYYMMDD'), tb,
                d * 86400000, (d + 1) * 86400000);
        END LOOP;
        EXECUTE format('INSERT INTO %I SELECT * FROM %I', tb, tb || '_unpart');
        EXECUTE format('DROP TABLE %I', tb || '_unpart');
    END LOOP;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER level_rollup_ins AFTER INSERT ON level_readings FOR EACH ROW EXECUTE FUNCTION level_rollup_ins();
CREATE TRIGGER level_rollup_del AFTER DELETE ON level_readings FOR EACH ROW EXECUTE FUNCTION level_rollup_del();
CREATE TRIGGER speed_rollup_ins AFTER INSERT ON positions FOR EACH ROW EXECUTE FUNCTION speed_rollup_ins();
CREATE TRIGGER speed_rollup_del AFTER DELETE ON positions FOR EACH ROW EXECUTE FUNCTION speed_rollup_del();

-- +goose Down
-- Back to plain tables, keeping every row of every partition.
-- +goose StatementBegin
DO $$
DECLARE
    tb TEXT;
BEGIN
    FOREACH tb IN ARRAY ARRAY['positions', 'tank_states', 'level_readings', 'raw_frames'] LOOP
        EXECUTE format('ALTER TABLE %I RENAME TO %I', tb, tb || '_part');
        EXECUTE format('ALTER INDEX %I RENAME TO %I', tb || '_pkey', tb || '_part_pkey');
        EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', tb, tb || '_part');
    END LOOP;
END
$$;
-- +goose StatementEnd
ALTER INDEX raw_frames_terminal RENAME TO raw_frames_part_terminal;
ALTER SEQUENCE raw_frames_id_seq OWNED BY NONE;
ALTER TABLE positions ADD PRIMARY KEY (car_id, t, terminal_id);
ALTER TABLE tank_states ADD PRIMARY KEY (car_id, t, terminal_id);
ALTER TABLE level_readings ADD PRIMARY KEY (car_id, t, compartment);
ALTER TABLE raw_frames ADD PRIMARY KEY (id);
INSERT INTO positions SELECT * FROM positions_part;
INSERT INTO tank_states SELECT * FROM tank_states_part;
INSERT INTO level_readings SELECT * FROM level_readings_part;
INSERT INTO raw_frames SELECT * FROM raw_frames_part;
DROP TABLE positions_part;
DROP TABLE tank_states_part;
DROP TABLE level_readings_part;
DROP TABLE raw_frames_part;
ALTER SEQUENCE raw_frames_id_seq OWNED BY raw_frames.id;
CREATE INDEX raw_frames_terminal ON raw_frames (terminal_id, received_at);
CREATE TRIGGER level_rollup_ins AFTER INSERT ON level_readings FOR EACH ROW EXECUTE FUNCTION level_rollup_ins();
CREATE TRIGGER level_rollup_del AFTER DELETE ON level_readings FOR EACH ROW EXECUTE FUNCTION level_rollup_del();
CREATE TRIGGER speed_rollup_ins AFTER INSERT ON positions FOR EACH ROW EXECUTE FUNCTION speed_rollup_ins();
CREATE TRIGGER speed_rollup_del AFTER DELETE ON positions FOR EACH ROW EXECUTE FUNCTION speed_rollup_del();
