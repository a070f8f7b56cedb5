-- +goose Up
-- History partitioning by time (issue 19, DECISIONS D9B) is PostgreSQL's (migrations/postgres/00039):
-- SQLite has no partitioned tables, and a one-machine store keeps its history in one file whose
-- retention deletes rows (internal/telemetry/retention.go). Nothing changes here; the number is kept
-- so that both dialects stay at the same version.
SELECT 1;

-- +goose Down
SELECT 1;
