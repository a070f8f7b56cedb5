-- +goose Up
-- Stations: base data with a fence (polygon or circle, WGS-84) that alarms and addresses use.
CREATE TABLE stations (
    id           BIGSERIAL PRIMARY KEY,
    group_id     BIGINT NOT NULL REFERENCES org_groups(id),
    name         TEXT    NOT NULL,
    station_type TEXT    NOT NULL,
    fence_type   BIGINT NOT NULL CHECK (fence_type IN (1, 2)),
    fence_points TEXT    NOT NULL DEFAULT '',
    fence_center TEXT    NOT NULL DEFAULT '',
    raduis       DOUBLE PRECISION NOT NULL DEFAULT 0,
    center_lng   DOUBLE PRECISION NOT NULL,
    center_lat   DOUBLE PRECISION NOT NULL,
    address      TEXT    NOT NULL DEFAULT '',
    contact      TEXT    NOT NULL DEFAULT '',
    phone        TEXT    NOT NULL DEFAULT '',
    remark       TEXT    NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    UNIQUE (group_id, name)
);
CREATE INDEX stations_type ON stations (station_type);

-- Suspected stations: places where valves were opened away from every station, clustered within ~300 m
-- per company (company_path = the top-level group's path), for an operator to promote or dismiss.
CREATE TABLE suspected_stations (
    id           BIGSERIAL PRIMARY KEY,
    group_id     BIGINT NOT NULL REFERENCES org_groups(id),
    company_path TEXT    NOT NULL,
    lng          DOUBLE PRECISION NOT NULL,
    lat          DOUBLE PRECISION NOT NULL,
    hits         BIGINT NOT NULL DEFAULT 0,
    car_count    BIGINT NOT NULL DEFAULT 0,
    first_at     BIGINT NOT NULL,
    last_at      BIGINT NOT NULL
);
CREATE INDEX suspected_stations_company ON suspected_stations (company_path, lat);

CREATE TABLE suspected_station_cars (
    suspect_id BIGINT NOT NULL REFERENCES suspected_stations(id) ON DELETE CASCADE,
    car_id     BIGINT NOT NULL,
    PRIMARY KEY (suspect_id, car_id)
);

-- +goose Down
DROP TABLE suspected_station_cars;
DROP TABLE suspected_stations;
DROP TABLE stations;
