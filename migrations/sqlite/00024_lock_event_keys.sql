-- +goose Up
-- Lock events (issue 16, DECISIONS D52): a terminal that sends the same report again must not double
-- its events, so one event per (serial, the lock's own time, event) — the ingest inserts with
-- ON CONFLICT DO NOTHING. The remote-commands tab counts the events each platform command explained.
CREATE UNIQUE INDEX lock_events_key ON lock_events (serial, t, event);
CREATE INDEX lock_events_command ON lock_events (command_id) WHERE command_id > 0;

-- +goose Down
DROP INDEX lock_events_command;
DROP INDEX lock_events_key;
