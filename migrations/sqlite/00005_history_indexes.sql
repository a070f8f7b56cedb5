-- +goose Up
-- One per-vehicle index per history table: raw frames are found by terminal; a car's frames through
-- the binding history (telemetry histTarget.where). Each index is a random page write per report.
DROP INDEX IF EXISTS raw_frames_car;

-- +goose Down
CREATE INDEX raw_frames_car ON raw_frames(car_id, received_at);
