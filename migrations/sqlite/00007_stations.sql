-- +goose Up
-- Stations: base data with a fence (polygon or circle, WGS-84) that alarms and addresses use.
CREATE TABLE stations (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    group_id     INTEGER NOT NULL REFERENCES org_groups(id),
    name         TEXT    NOT NULL,
    station_type TEXT    NOT NULL,
    fence_type   INTEGER NOT NULL CHECK (fence_type IN (1, 2)),
    fence_points TEXT    NOT NULL DEFAULT '',
    fence_center TEXT    NOT NULL DEFAULT '',
    raduis       REAL NOT NULL DEFAULT 0,
    center_lng   REAL NOT NULL,
    center_lat   REAL NOT NULL,
    address      TEXT    NOT NULL DEFAULT '',
    contact      TEXT    NOT NULL DEFAULT '',
    phone        TEXT    NOT NULL DEFAULT '',
    remark       TEXT    NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    UNIQUE (group_id, name)
);
CREATE INDEX stations_type ON stations (station_type);

-- Suspected stations: places where valves were opened away from every station, clustered within ~300 m
-- per company (company_path = the top-level group's path), for an operator to promote or dismiss.
CREATE TABLE suspected_stations (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    group_id     INTEGER NOT NULL REFERENCES org_groups(id),
    company_path TEXT    NOT NULL,
    lng          REAL NOT NULL,
    lat          REAL NOT NULL,
    hits         INTEGER NOT NULL DEFAULT 0,
    car_count    INTEGER NOT NULL DEFAULT 0,
    first_at     INTEGER NOT NULL,
    last_at      INTEGER NOT NULL
);
CREATE INDEX suspected_stations_company ON suspected_stations (company_path, lat);

CREATE TABLE suspected_station_cars (
    suspect_id INTEGER NOT NULL REFERENCES suspected_stations(id) ON DELETE CASCADE,
    car_id     INTEGER NOT NULL,
    PRIMARY KEY (suspect_id, car_id)
);

-- +goose Down
DROP TABLE suspected_station_cars;
DROP TABLE suspected_stations;
DROP TABLE stations;
