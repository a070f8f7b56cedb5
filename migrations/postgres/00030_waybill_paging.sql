-- +goose Up
-- The waybill list's paging index (issue 15, D58): how many waybills each carrier group and sales
-- company has in each state, per block of 4096 ids. The list's total is a sum of these counts instead of
-- a COUNT(*) over the scope, and a deep page starts in the right block instead of walking an OFFSET
-- over every waybill before it. Kept by triggers, so no code path that writes waybills can forget it.
CREATE TABLE waybill_page_counts (
    group_id       BIGINT  NOT NULL,
    sales_group_id BIGINT  NOT NULL,
    state          INTEGER NOT NULL,
    block          BIGINT  NOT NULL,
    n              BIGINT  NOT NULL,
    PRIMARY KEY (group_id, sales_group_id, state, block)
);
INSERT INTO waybill_page_counts (group_id, sales_group_id, state, block, n)
    SELECT group_id, COALESCE(sales_group_id, 0), state, id / 4096, COUNT(*) FROM waybills
    GROUP BY group_id, COALESCE(sales_group_id, 0), state, id / 4096;

-- Statement-level, with the statement's rows as transition tables: a statement that inserts or changes
-- many waybills updates each count once (a per-row trigger rewrote the same count row once per waybill,
-- and a bulk load left the table a thousand times its size), and an update that changes no counted
-- column (most of them: figures, times) nets to nothing and writes nothing.
-- +goose StatementBegin
CREATE FUNCTION waybills_page_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO waybill_page_counts (group_id, sales_group_id, state, block, n)
            SELECT group_id, COALESCE(sales_group_id, 0), state, id / 4096, COUNT(*) FROM new_rows GROUP BY 1, 2, 3, 4
            ON CONFLICT (group_id, sales_group_id, state, block) DO UPDATE SET n = waybill_page_counts.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO waybill_page_counts (group_id, sales_group_id, state, block, n)
            SELECT group_id, COALESCE(sales_group_id, 0), state, id / 4096, -COUNT(*) FROM old_rows GROUP BY 1, 2, 3, 4
            ON CONFLICT (group_id, sales_group_id, state, block) DO UPDATE SET n = waybill_page_counts.n + EXCLUDED.n;
    ELSE
        INSERT INTO waybill_page_counts (group_id, sales_group_id, state, block, n)
            SELECT g, s, st, b, SUM(d) FROM (
                SELECT group_id AS g, COALESCE(sales_group_id, 0) AS s, state AS st, id / 4096 AS b, 1 AS d FROM new_rows
                UNION ALL
                SELECT group_id, COALESCE(sales_group_id, 0), state, id / 4096, -1 FROM old_rows) AS x
            GROUP BY g, s, st, b HAVING SUM(d) <> 0
            ON CONFLICT (group_id, sales_group_id, state, block) DO UPDATE SET n = waybill_page_counts.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER waybills_page_count_insert AFTER INSERT ON waybills REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION waybills_page_count();
CREATE TRIGGER waybills_page_count_update AFTER UPDATE ON waybills REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION waybills_page_count();
CREATE TRIGGER waybills_page_count_delete AFTER DELETE ON waybills REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION waybills_page_count();

-- the list's other filters and orders: loading time, depot, and the number searched by any part of it
-- (pg_trgm is a trusted extension since PostgreSQL 13: a database owner may create it; it goes to
-- schema public whatever the search path, and two stores migrating at once may both try)
-- The depot and destination filters count their rows from the indexes alone (index-only scans), which
-- is why the indexes carry the scope's columns.
CREATE INDEX waybills_planned_load ON waybills (planned_load_at);
CREATE INDEX waybills_depot ON waybills (depot_id, group_id) INCLUDE (sales_group_id);
CREATE INDEX waybills_id_scope ON waybills (id) INCLUDE (group_id, sales_group_id);
DROP INDEX waybill_destinations_station;
CREATE INDEX waybill_destinations_station ON waybill_destinations (station_id, waybill_id);
-- +goose StatementBegin
DO $$ BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;
EXCEPTION WHEN unique_violation OR duplicate_object THEN NULL;
END $$;
-- +goose StatementEnd
CREATE INDEX waybills_no_trgm ON waybills USING gin (no public.gin_trgm_ops);

-- +goose Down
DROP INDEX waybills_no_trgm;
DROP INDEX waybill_destinations_station;
CREATE INDEX waybill_destinations_station ON waybill_destinations (station_id);
DROP INDEX waybills_id_scope;
DROP INDEX waybills_depot;
DROP INDEX waybills_planned_load;
DROP TRIGGER waybills_page_count_delete ON waybills;
DROP TRIGGER waybills_page_count_update ON waybills;
DROP TRIGGER waybills_page_count_insert ON waybills;
DROP FUNCTION waybills_page_count();
DROP TABLE waybill_page_counts;
