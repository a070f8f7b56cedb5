-- +goose Up
-- Lead seals (issue 16, D53): a seal number is looked up across every load record (is it reused on
-- another waybill?) each time a record is written and when the seal records are rebuilt; without an
-- index that is a scan of every compartment ever loaded.
CREATE INDEX load_record_items_seal ON load_record_items (seal_no) WHERE seal_no <> '';
-- the incidents of one seal (the seal page's row → its incidents)
CREATE INDEX seal_incidents_seal ON seal_incidents (seal_id) WHERE seal_id <> 0;

-- +goose Down
DROP INDEX seal_incidents_seal;
DROP INDEX load_record_items_seal;
