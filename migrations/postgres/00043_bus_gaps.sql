-- +goose Up
-- A node's gaps (committed reports its bus would not take, internal/cluster/work.go) kept in the store
-- while they wait for the bus, so that a node that dies with an old gap leaves it to be judged by
-- another (docs/DECISIONS.md D125). One row per node life and car: the span of row times (Unix ms).
CREATE TABLE bus_gaps (
    prefix TEXT NOT NULL,
    node TEXT NOT NULL,
    life TEXT NOT NULL,
    car_id BIGINT NOT NULL,
    t_from BIGINT NOT NULL,
    t_to BIGINT NOT NULL,
    PRIMARY KEY (prefix, node, life, car_id)
);

-- +goose Down
DROP TABLE bus_gaps;
