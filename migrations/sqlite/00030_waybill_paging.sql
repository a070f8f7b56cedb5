-- +goose Up
-- The waybill list's paging index (issue 15, D58): how many waybills each carrier group and sales
-- company has in each state, per block of 4096 ids. The list's total is a sum of these counts instead of
-- a COUNT(*) over the scope, and a deep page starts in the right block instead of walking an OFFSET
-- over every waybill before it. Kept by triggers, so no code path that writes waybills can forget it.
CREATE TABLE waybill_page_counts (
    group_id       INTEGER NOT NULL,
    sales_group_id INTEGER NOT NULL,
    state          INTEGER NOT NULL,
    block          INTEGER NOT NULL,
    n              INTEGER NOT NULL,
    PRIMARY KEY (group_id, sales_group_id, state, block)
);
INSERT INTO waybill_page_counts (group_id, sales_group_id, state, block, n)
    SELECT group_id, COALESCE(sales_group_id, 0), state, id / 4096, COUNT(*) FROM waybills
    GROUP BY group_id, COALESCE(sales_group_id, 0), state, id / 4096;

-- +goose StatementBegin
CREATE TRIGGER waybills_page_count_insert AFTER INSERT ON waybills BEGIN
    INSERT OR IGNORE INTO waybill_page_counts (group_id, sales_group_id, state, block, n)
        VALUES (NEW.group_id, COALESCE(NEW.sales_group_id, 0), NEW.state, NEW.id / 4096, 0);
    UPDATE waybill_page_counts SET n = n + 1 WHERE group_id = NEW.group_id
        AND sales_group_id = COALESCE(NEW.sales_group_id, 0) AND state = NEW.state AND block = NEW.id / 4096;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER waybills_page_count_delete AFTER DELETE ON waybills BEGIN
    UPDATE waybill_page_counts SET n = n - 1 WHERE group_id = OLD.group_id
        AND sales_group_id = COALESCE(OLD.sales_group_id, 0) AND state = OLD.state AND block = OLD.id / 4096;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER waybills_page_count_update AFTER UPDATE OF group_id, sales_group_id, state ON waybills
WHEN OLD.group_id IS NOT NEW.group_id OR OLD.sales_group_id IS NOT NEW.sales_group_id OR OLD.state IS NOT NEW.state BEGIN
    UPDATE waybill_page_counts SET n = n - 1 WHERE group_id = OLD.group_id
        AND sales_group_id = COALESCE(OLD.sales_group_id, 0) AND state = OLD.state AND block = OLD.id / 4096;
    INSERT OR IGNORE INTO waybill_page_counts (group_id, sales_group_id, state, block, n)
        VALUES (NEW.group_id, COALESCE(NEW.sales_group_id, 0), NEW.state, NEW.id / 4096, 0);
    UPDATE waybill_page_counts SET n = n + 1 WHERE group_id = NEW.group_id
        AND sales_group_id = COALESCE(NEW.sales_group_id, 0) AND state = NEW.state AND block = NEW.id / 4096;
END;
-- +goose StatementEnd

-- the list's other filters and orders: loading time, depot, destination (with the scope's columns, so
-- that their counts read the indexes alone)
CREATE INDEX waybills_planned_load ON waybills (planned_load_at);
CREATE INDEX waybills_depot ON waybills (depot_id, group_id, sales_group_id);
DROP INDEX waybill_destinations_station;
CREATE INDEX waybill_destinations_station ON waybill_destinations (station_id, waybill_id);

-- +goose Down
DROP INDEX waybill_destinations_station;
CREATE INDEX waybill_destinations_station ON waybill_destinations (station_id);
DROP INDEX waybills_depot;
DROP INDEX waybills_planned_load;
DROP TRIGGER waybills_page_count_update;
DROP TRIGGER waybills_page_count_delete;
DROP TRIGGER waybills_page_count_insert;
DROP TABLE waybill_page_counts;
