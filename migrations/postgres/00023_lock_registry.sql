-- +goose Up
-- The lock registry's lists (issue 16, D51): the binding history newest first across a scope, and the
-- lock list by its last report, walk an index instead of sorting every row (docs/PERFORMANCE.md).
CREATE INDEX lock_binds_time ON lock_binds (t);
CREATE INDEX locks_last_event ON locks (last_event_at);

-- +goose Down
DROP INDEX locks_last_event;
DROP INDEX lock_binds_time;
