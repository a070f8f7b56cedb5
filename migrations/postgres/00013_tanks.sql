-- +goose Up
-- Tanks (issue 14): compartments of cars and ground tanks of stations with their strapping tables,
-- level readings made volumes, station gauge readings and deliveries, tank events, valve changes.
-- Times are Unix milliseconds (UTC); volumes litres; temperatures 0.1 °C where BIGINT, °C where DOUBLE PRECISION.

-- A car's compartments (tankInfo). product: tank.Product* code; density20 kg/m³ (0 = product default);
-- strap: tank.Strap.Text() ("" = no table: the probe's own volume counts); probe_offset_mm is added to
-- the probe's reading before the table is applied (a probe mounted above the bottom reads low).
CREATE TABLE compartments (
    car_id          BIGINT NOT NULL,
    no              BIGINT NOT NULL CHECK (no BETWEEN 1 AND 8),
    product         BIGINT NOT NULL DEFAULT 0,
    capacity_l      BIGINT NOT NULL DEFAULT 0,
    height_mm       BIGINT NOT NULL DEFAULT 0,
    probe_type      TEXT    NOT NULL DEFAULT '',
    probe_offset_mm BIGINT NOT NULL DEFAULT 0,
    density20       DOUBLE PRECISION    NOT NULL DEFAULT 0,
    strap           TEXT    NOT NULL DEFAULT '',
    updated_by      BIGINT NOT NULL DEFAULT 0,
    updated_at      BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (car_id, no)
);

-- A station's ground tanks. gauge_host/port: the automatic tank gauge (TLS protocol over TCP);
-- gauge_tank: the tank's number on that gauge. Thresholds for the tank events.
CREATE TABLE ground_tanks (
    id              BIGSERIAL PRIMARY KEY,
    station_id      BIGINT NOT NULL REFERENCES stations(id) ON DELETE CASCADE,
    tank_no         BIGINT NOT NULL,
    name            TEXT    NOT NULL DEFAULT '',
    product         BIGINT NOT NULL DEFAULT 0,
    capacity_l      BIGINT NOT NULL DEFAULT 0,
    height_mm       BIGINT NOT NULL DEFAULT 0,
    density20       DOUBLE PRECISION    NOT NULL DEFAULT 0,
    strap           TEXT    NOT NULL DEFAULT '',
    gauge_host      TEXT    NOT NULL DEFAULT '',
    gauge_port      BIGINT NOT NULL DEFAULT 0,
    gauge_tank      BIGINT NOT NULL DEFAULT 0,
    low_stock_pct   BIGINT NOT NULL DEFAULT 15,
    cover_days_min  DOUBLE PRECISION    NOT NULL DEFAULT 2,
    water_max_mm    BIGINT NOT NULL DEFAULT 30,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    updated_by      BIGINT NOT NULL DEFAULT 0,
    UNIQUE (station_id, tank_no)
);
CREATE INDEX ground_tanks_gauge ON ground_tanks (gauge_host, gauge_port);

-- Truck level readings, one row per compartment and report: the raw reading (level_mm, probe_l,
-- temp_dc) kept beside the volume that counts (source: tank.Source, 1 table, 2 probe), V20 and mass.
CREATE TABLE level_readings (
    car_id      BIGINT NOT NULL,
    t           BIGINT NOT NULL,
    compartment BIGINT NOT NULL,
    level_mm    BIGINT NOT NULL,
    probe_l     BIGINT NOT NULL,
    temp_dc     BIGINT NOT NULL,
    volume_l    DOUBLE PRECISION    NOT NULL,
    source      BIGINT NOT NULL,
    v20_l       DOUBLE PRECISION    NOT NULL,
    mass_kg     DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (car_id, t, compartment)
);

-- Ground tank readings (gauge inventory, function 201). volume_l is the volume that counts (source 1:
-- the platform's table applied to height_mm, 3: the gauge's own volume); gauge_* are the raw figures.
CREATE TABLE ground_readings (
    tank_id        BIGINT NOT NULL,
    t              BIGINT NOT NULL,
    gauge_volume_l DOUBLE PRECISION    NOT NULL,
    gauge_tc_l     DOUBLE PRECISION    NOT NULL,
    ullage_l       DOUBLE PRECISION    NOT NULL,
    height_mm      DOUBLE PRECISION    NOT NULL,
    water_mm       DOUBLE PRECISION    NOT NULL,
    water_l        DOUBLE PRECISION    NOT NULL,
    temp_c         DOUBLE PRECISION    NOT NULL,
    volume_l       DOUBLE PRECISION    NOT NULL,
    source         BIGINT NOT NULL,
    v20_l          DOUBLE PRECISION    NOT NULL,
    mass_kg        DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (tank_id, t)
);

-- Deliveries a gauge recorded (function 202): start and end of the drop into the tank.
CREATE TABLE ground_deliveries (
    tank_id        BIGINT NOT NULL,
    start_at       BIGINT NOT NULL,
    end_at         BIGINT NOT NULL,
    start_l        DOUBLE PRECISION    NOT NULL,
    end_l          DOUBLE PRECISION    NOT NULL,
    start_tc_l     DOUBLE PRECISION    NOT NULL,
    end_tc_l       DOUBLE PRECISION    NOT NULL,
    start_height   DOUBLE PRECISION    NOT NULL,
    end_height     DOUBLE PRECISION    NOT NULL,
    start_temp_c   DOUBLE PRECISION    NOT NULL,
    end_temp_c     DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (tank_id, start_at)
);

-- Truck compartment events (carEventRecord). kind: load, unload, dropMoving, dropOutside, theft,
-- sensorStuck, sensorJump, sensorMissing, coverOpen, valveOpen (an opening lasts start_at..end_at).
-- compartment 0: the car as a whole. station_id 0: outside every fence.
CREATE TABLE car_tank_events (
    id           BIGSERIAL PRIMARY KEY,
    car_id       BIGINT NOT NULL,
    compartment  BIGINT NOT NULL DEFAULT 0,
    kind         TEXT    NOT NULL,
    start_at     BIGINT NOT NULL,
    end_at       BIGINT,
    lat          BIGINT NOT NULL DEFAULT 0,
    lon          BIGINT NOT NULL DEFAULT 0,
    station_id   BIGINT NOT NULL DEFAULT 0,
    station_name TEXT    NOT NULL DEFAULT '',
    before_l     DOUBLE PRECISION    NOT NULL DEFAULT 0,
    after_l      DOUBLE PRECISION    NOT NULL DEFAULT 0,
    before_v20   DOUBLE PRECISION    NOT NULL DEFAULT 0,
    after_v20    DOUBLE PRECISION    NOT NULL DEFAULT 0,
    detail       TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX car_tank_events_car ON car_tank_events (car_id, start_at);
CREATE INDEX car_tank_events_time ON car_tank_events (start_at);

-- Every valve and cover change of a car (AllDataValveStates): kind 0–3 (tank.SmallManholeCover …
-- tank.BottomValve), the device byte before and after.
CREATE TABLE valve_changes (
    car_id       BIGINT NOT NULL,
    t            BIGINT NOT NULL,
    compartment  BIGINT NOT NULL,
    kind         BIGINT NOT NULL,
    prev_state   BIGINT NOT NULL,
    state        BIGINT NOT NULL,
    lat          BIGINT NOT NULL DEFAULT 0,
    lon          BIGINT NOT NULL DEFAULT 0,
    station_id   BIGINT NOT NULL DEFAULT 0,
    station_name TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (car_id, t, compartment, kind)
);
CREATE INDEX valve_changes_time ON valve_changes (t);

-- Station tank events (tankEventRecord). kind: delivery, lowStock, lowCover, water, gaugeAlarm,
-- leakTest, leakFall, gaugeOffline.
CREATE TABLE ground_tank_events (
    id         BIGSERIAL PRIMARY KEY,
    tank_id    BIGINT NOT NULL,
    station_id BIGINT NOT NULL,
    kind       TEXT    NOT NULL,
    start_at   BIGINT NOT NULL,
    end_at     BIGINT,
    before_l   DOUBLE PRECISION    NOT NULL DEFAULT 0,
    after_l    DOUBLE PRECISION    NOT NULL DEFAULT 0,
    before_v20 DOUBLE PRECISION    NOT NULL DEFAULT 0,
    after_v20  DOUBLE PRECISION    NOT NULL DEFAULT 0,
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
