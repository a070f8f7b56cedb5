-- +goose Up
-- Tanks (issue 14): compartments of cars and ground tanks of stations with their strapping tables,
-- level readings made volumes, station gauge readings and deliveries, tank events, valve changes.
-- Times are Unix milliseconds (UTC); volumes litres; temperatures 0.1 °C where INTEGER, °C where REAL.

-- A car's compartments (tankInfo). product: tank.Product* code; density20 kg/m³ (0 = product default);
-- strap: tank.Strap.Text() ("" = no table: the probe's own volume counts); probe_offset_mm is added to
-- the probe's reading before the table is applied (a probe mounted above the bottom reads low).
CREATE TABLE compartments (
    car_id          INTEGER NOT NULL,
    no              INTEGER NOT NULL CHECK (no BETWEEN 1 AND 8),
    product         INTEGER NOT NULL DEFAULT 0,
    capacity_l      INTEGER NOT NULL DEFAULT 0,
    height_mm       INTEGER NOT NULL DEFAULT 0,
    probe_type      TEXT    NOT NULL DEFAULT '',
    probe_offset_mm INTEGER NOT NULL DEFAULT 0,
    density20       REAL    NOT NULL DEFAULT 0,
    strap           TEXT    NOT NULL DEFAULT '',
    updated_by      INTEGER NOT NULL DEFAULT 0,
    updated_at      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (car_id, no)
) WITHOUT ROWID;

-- A station's ground tanks. gauge_host/port: the automatic tank gauge (TLS protocol over TCP);
-- gauge_tank: the tank's number on that gauge. Thresholds for the tank events.
CREATE TABLE ground_tanks (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    station_id      INTEGER NOT NULL REFERENCES stations(id) ON DELETE CASCADE,
    tank_no         INTEGER NOT NULL,
    name            TEXT    NOT NULL DEFAULT '',
    product         INTEGER NOT NULL DEFAULT 0,
    capacity_l      INTEGER NOT NULL DEFAULT 0,
    height_mm       INTEGER NOT NULL DEFAULT 0,
    density20       REAL    NOT NULL DEFAULT 0,
    strap           TEXT    NOT NULL DEFAULT '',
    gauge_host      TEXT    NOT NULL DEFAULT '',
    gauge_port      INTEGER NOT NULL DEFAULT 0,
    gauge_tank      INTEGER NOT NULL DEFAULT 0,
    low_stock_pct   INTEGER NOT NULL DEFAULT 15,
    cover_days_min  REAL    NOT NULL DEFAULT 2,
    water_max_mm    INTEGER NOT NULL DEFAULT 30,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    updated_by      INTEGER NOT NULL DEFAULT 0,
    UNIQUE (station_id, tank_no)
);
CREATE INDEX ground_tanks_gauge ON ground_tanks (gauge_host, gauge_port);

-- Truck level readings, one row per compartment and report: the raw reading (level_mm, probe_l,
-- temp_dc) kept beside the volume that counts (source: tank.Source, 1 table, 2 probe), V20 and mass.
CREATE TABLE level_readings (
    car_id      INTEGER NOT NULL,
    t           INTEGER NOT NULL,
    compartment INTEGER NOT NULL,
    level_mm    INTEGER NOT NULL,
    probe_l     INTEGER NOT NULL,
    temp_dc     INTEGER NOT NULL,
    volume_l    REAL    NOT NULL,
    source      INTEGER NOT NULL,
    v20_l       REAL    NOT NULL,
    mass_kg     REAL    NOT NULL,
    PRIMARY KEY (car_id, t, compartment)
) WITHOUT ROWID;

-- Ground tank readings (gauge inventory, function 201). volume_l is the volume that counts (source 1:
-- the platform's table applied to height_mm, 3: the gauge's own volume); gauge_* are the raw figures.
CREATE TABLE ground_readings (
    tank_id        INTEGER NOT NULL,
    t              INTEGER NOT NULL,
    gauge_volume_l REAL    NOT NULL,
    gauge_tc_l     REAL    NOT NULL,
    ullage_l       REAL    NOT NULL,
    height_mm      REAL    NOT NULL,
    water_mm       REAL    NOT NULL,
    water_l        REAL    NOT NULL,
    temp_c         REAL    NOT NULL,
    volume_l       REAL    NOT NULL,
    source         INTEGER NOT NULL,
    v20_l          REAL    NOT NULL,
    mass_kg        REAL    NOT NULL,
    PRIMARY KEY (tank_id, t)
) WITHOUT ROWID;

-- Deliveries a gauge recorded (function 202): start and end of the drop into the tank.
CREATE TABLE ground_deliveries (
    tank_id        INTEGER NOT NULL,
    start_at       INTEGER NOT NULL,
    end_at         INTEGER NOT NULL,
    start_l        REAL    NOT NULL,
    end_l          REAL    NOT NULL,
    start_tc_l     REAL    NOT NULL,
    end_tc_l       REAL    NOT NULL,
    start_height   REAL    NOT NULL,
    end_height     REAL    NOT NULL,
    start_temp_c   REAL    NOT NULL,
    end_temp_c     REAL    NOT NULL,
    PRIMARY KEY (tank_id, start_at)
) WITHOUT ROWID;

-- Truck compartment events (carEventRecord). kind: load, unload, dropMoving, dropOutside, theft,
-- sensorStuck, sensorJump, sensorMissing, coverOpen, valveOpen (an opening lasts start_at..end_at).
-- compartment 0: the car as a whole. station_id 0: outside every fence.
CREATE TABLE car_tank_events (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    car_id       INTEGER NOT NULL,
    compartment  INTEGER NOT NULL DEFAULT 0,
    kind         TEXT    NOT NULL,
    start_at     INTEGER NOT NULL,
    end_at       INTEGER,
    lat          INTEGER NOT NULL DEFAULT 0,
    lon          INTEGER NOT NULL DEFAULT 0,
    station_id   INTEGER NOT NULL DEFAULT 0,
    station_name TEXT    NOT NULL DEFAULT '',
    before_l     REAL    NOT NULL DEFAULT 0,
    after_l      REAL    NOT NULL DEFAULT 0,
    before_v20   REAL    NOT NULL DEFAULT 0,
    after_v20    REAL    NOT NULL DEFAULT 0,
    detail       TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX car_tank_events_car ON car_tank_events (car_id, start_at);
CREATE INDEX car_tank_events_time ON car_tank_events (start_at);

-- Every valve and cover change of a car (AllDataValveStates): kind 0–3 (tank.SmallManholeCover …
-- tank.BottomValve), the device byte before and after.
CREATE TABLE valve_changes (
    car_id       INTEGER NOT NULL,
    t            INTEGER NOT NULL,
    compartment  INTEGER NOT NULL,
    kind         INTEGER NOT NULL,
    prev_state   INTEGER NOT NULL,
    state        INTEGER NOT NULL,
    lat          INTEGER NOT NULL DEFAULT 0,
    lon          INTEGER NOT NULL DEFAULT 0,
    station_id   INTEGER NOT NULL DEFAULT 0,
    station_name TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (car_id, t, compartment, kind)
) WITHOUT ROWID;
CREATE INDEX valve_changes_time ON valve_changes (t);

-- Station tank events (tankEventRecord). kind: delivery, lowStock, lowCover, water, gaugeAlarm,
-- leakTest, leakFall, gaugeOffline.
CREATE TABLE ground_tank_events (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    tank_id    INTEGER NOT NULL,
    station_id INTEGER NOT NULL,
    kind       TEXT    NOT NULL,
    start_at   INTEGER NOT NULL,
    end_at     INTEGER,
    before_l   REAL    NOT NULL DEFAULT 0,
    after_l    REAL    NOT NULL DEFAULT 0,
    before_v20 REAL    NOT NULL DEFAULT 0,
    after_v20  REAL    NOT NULL DEFAULT 0,
    detail     TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX ground_tank_events_tank ON ground_tank_events (tank_id, start_at);
CREATE INDEX ground_tank_events_time ON ground_tank_events (start_at);

-- +goose Down
DROP TABLE ground_tank_events;
DROP TABLE valve_changes;
DROP TABLE car_tank_events;
DROP TABLE ground_deliveries;
DROP TABLE ground_readings;
DROP TABLE level_readings;
DROP TABLE ground_tanks;
DROP TABLE compartments;
