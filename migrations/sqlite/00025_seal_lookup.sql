-- +goose Up
-- Lead seals (issue 16, D53): a seal number is looked up across every load record (is it reused on
-- another waybill?) each time a record is written and when the seal records are rebuilt; without an
-- index that is a scan of every compartment ever loaded.
CREATE INDEX load_record_items_seal ON load_record_items (seal_no) WHERE seal_no <> '';
-- the leadSealRecord page: the seals of a period (applying time) and the incidents of a period, for a
-- caller whose scope is most of the platform (no group to lead the index), and a seal's incidents
CREATE INDEX seal_records_time ON seal_records (applied_at);
CREATE INDEX seal_incidents_time ON seal_incidents (t);
CREATE INDEX seal_incidents_seal ON seal_incidents (seal_id);

-- +goose Down
DROP INDEX seal_incidents_seal;
DROP INDEX seal_incidents_time;
DROP INDEX seal_records_time;
DROP INDEX load_record_items_seal;
