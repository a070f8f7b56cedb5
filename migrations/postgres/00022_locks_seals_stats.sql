-- +goose Up
-- Locks, seals and the numbers (issue 16, DOMAIN.md §3 and §5): the electronic-lock registry and its
-- bindings, lock events from the terminals, the car blacklist, lead-seal records and their incidents,
-- and the daily trip rollup the statistics pages read. Times are Unix milliseconds (UTC), 0 = none;
-- days are Asia/Shanghai dates written YYYYMMDD; volumes litres; masses tonnes.

-- Electronic locks (blueLock). serial is unique platform-wide: a lock reports by its serial. kind:
-- lock.Kind* (1 BLE one-shot, 2 4G remote); state: lock.State* (1 in stock, 2 bound, 3 faulty,
-- 4 retired); the binding now is car_id + compartment (1–8) + device (lock.Device*: 0 small manhole
-- cover, 1 manhole cover, 2 discharge valve, 3 bottom valve), NULL car when not bound; battery_pct -1
-- unknown; online and last_event_at from the last event.
CREATE TABLE locks (
    id            BIGSERIAL PRIMARY KEY,
    group_id      BIGINT NOT NULL REFERENCES org_groups(id),
    serial        TEXT    NOT NULL UNIQUE,
    kind          INTEGER NOT NULL,
    model         TEXT    NOT NULL DEFAULT '',
    firmware      TEXT    NOT NULL DEFAULT '',
    battery_pct   INTEGER NOT NULL DEFAULT -1,
    state         INTEGER NOT NULL DEFAULT 1,
    online        BOOLEAN NOT NULL DEFAULT FALSE,
    car_id        BIGINT REFERENCES cars(id),
    compartment   INTEGER NOT NULL DEFAULT 0,
    device        INTEGER NOT NULL DEFAULT 0,
    last_event_at BIGINT NOT NULL DEFAULT 0,
    remark        TEXT    NOT NULL DEFAULT '',
    created_by    BIGINT NOT NULL DEFAULT 0,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL
);
CREATE INDEX locks_group ON locks (group_id, id);
CREATE UNIQUE INDEX locks_slot ON locks (car_id, compartment, device) WHERE car_id IS NOT NULL;

-- Binding history (blueLockBindRecord): action lock.Bind* (1 bound, 2 unbound), who and why.
CREATE TABLE lock_binds (
    id          BIGSERIAL PRIMARY KEY,
    lock_id     BIGINT NOT NULL REFERENCES locks(id) ON DELETE CASCADE,
    group_id    BIGINT NOT NULL REFERENCES org_groups(id),
    car_id      BIGINT NOT NULL,
    compartment INTEGER NOT NULL,
    device      INTEGER NOT NULL,
    action      INTEGER NOT NULL,
    user_id     BIGINT NOT NULL DEFAULT 0,
    reason      TEXT    NOT NULL DEFAULT '',
    t           BIGINT NOT NULL
);
CREATE INDEX lock_binds_group_time ON lock_binds (group_id, t);
CREATE INDEX lock_binds_lock ON lock_binds (lock_id, t);

-- Lock events (blueLockRecord): what a lock reported through its terminal. event: lock.Event*
-- (1 opened, 2 closed, 3 tampered, 4 low battery, 5 offline, 6 online); method: lock.Method* (0 none,
-- 1 remote (platform command over 4G), 2 BLE from a phone, 3 local key / keypad); lock_id 0 when the
-- serial is not registered; group_id / car_id the car's when the event arrived; place: the position,
-- station_id the station whose fence holds it (0: outside every fence); waybill_id the car's active
-- waybill (0: none); command_id the platform command that explains it (0: none).
CREATE TABLE lock_events (
    id          BIGSERIAL PRIMARY KEY,
    lock_id     BIGINT NOT NULL DEFAULT 0,
    serial      TEXT    NOT NULL DEFAULT '',
    group_id    BIGINT NOT NULL,
    car_id      BIGINT NOT NULL,
    compartment INTEGER NOT NULL DEFAULT 0,
    device      INTEGER NOT NULL DEFAULT 0,
    event       INTEGER NOT NULL,
    method      INTEGER NOT NULL DEFAULT 0,
    battery_pct INTEGER NOT NULL DEFAULT -1,
    t           BIGINT NOT NULL,
    lat         INTEGER NOT NULL DEFAULT 0,
    lon         INTEGER NOT NULL DEFAULT 0,
    station_id  BIGINT NOT NULL DEFAULT 0,
    waybill_id  BIGINT NOT NULL DEFAULT 0,
    command_id  BIGINT NOT NULL DEFAULT 0,
    recorded_at BIGINT NOT NULL
);
CREATE INDEX lock_events_group_time ON lock_events (group_id, t);
CREATE INDEX lock_events_car_time ON lock_events (car_id, t);
CREATE INDEX lock_events_lock_time ON lock_events (lock_id, t);

-- The car blacklist (carBlacklistRecord): a car barred from loading from start_at until end_at (0: until
-- lifted), why and who decided; lifted_at / lifted_by / lift_reason when lifted early.
CREATE TABLE car_blacklist (
    id          BIGSERIAL PRIMARY KEY,
    group_id    BIGINT NOT NULL REFERENCES org_groups(id),
    car_id      BIGINT NOT NULL REFERENCES cars(id),
    reason      TEXT    NOT NULL,
    start_at    BIGINT NOT NULL,
    end_at      BIGINT NOT NULL DEFAULT 0,
    decided_by  BIGINT NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL,
    lifted_at   BIGINT NOT NULL DEFAULT 0,
    lifted_by   BIGINT NOT NULL DEFAULT 0,
    lift_reason TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX car_blacklist_car ON car_blacklist (car_id, start_at);
CREATE INDEX car_blacklist_group ON car_blacklist (group_id, start_at);

-- Lead seals (leadSealRecord): one row per seal applied on a waybill's compartment (from its load
-- record), and its end. state: seal.State* (1 applied, 2 broken at the destination, 3 broken away from
-- the destination); broken_*: when and where it was broken (station 0: outside every fence).
CREATE TABLE seal_records (
    id                BIGSERIAL PRIMARY KEY,
    group_id          BIGINT NOT NULL,
    waybill_id        BIGINT NOT NULL REFERENCES waybills(id) ON DELETE CASCADE,
    car_id            BIGINT NOT NULL,
    compartment       INTEGER NOT NULL,
    seal_no           TEXT    NOT NULL,
    depot_id          BIGINT NOT NULL DEFAULT 0,
    applied_at        BIGINT NOT NULL,
    applied_by        BIGINT NOT NULL DEFAULT 0,
    state             INTEGER NOT NULL DEFAULT 1,
    broken_at         BIGINT NOT NULL DEFAULT 0,
    broken_station_id BIGINT NOT NULL DEFAULT 0,
    broken_lat        INTEGER NOT NULL DEFAULT 0,
    broken_lon        INTEGER NOT NULL DEFAULT 0,
    UNIQUE (waybill_id, compartment)
);
CREATE INDEX seal_records_group_time ON seal_records (group_id, applied_at);
CREATE INDEX seal_records_no ON seal_records (seal_no);
CREATE INDEX seal_records_car_time ON seal_records (car_id, applied_at);

-- Seal incidents: kind seal.Incident* (1 number reused, 2 broken away from the destination, 3 trip
-- without seals, 4 number found does not match), tied to the waybill and, where there is one, the seal.
CREATE TABLE seal_incidents (
    id          BIGSERIAL PRIMARY KEY,
    group_id    BIGINT NOT NULL,
    waybill_id  BIGINT NOT NULL REFERENCES waybills(id) ON DELETE CASCADE,
    car_id      BIGINT NOT NULL,
    seal_id     BIGINT NOT NULL DEFAULT 0,
    compartment INTEGER NOT NULL DEFAULT 0,
    seal_no     TEXT    NOT NULL DEFAULT '',
    kind        INTEGER NOT NULL,
    t           BIGINT NOT NULL,
    lat         INTEGER NOT NULL DEFAULT 0,
    lon         INTEGER NOT NULL DEFAULT 0,
    station_id  BIGINT NOT NULL DEFAULT 0,
    detail      TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX seal_incidents_group_time ON seal_incidents (group_id, t);
CREATE INDEX seal_incidents_waybill ON seal_incidents (waybill_id);

-- The daily trip rollup (stats.Refresh): the finished trips (CLOSED or DIFF_FLAGGED) of a car on a
-- day of closed_at, per carrier group and sales company (0: none). product_id 0 is the trip row (every
-- figure of the trips); product_id > 0 rows hold the same figures for the compartments of one product
-- (trips: the trips that carried it). Recomputed per (car, day) from the waybills; never edited.
CREATE TABLE stat_trip_daily (
    day               INTEGER NOT NULL,
    car_id            BIGINT NOT NULL,
    group_id          BIGINT NOT NULL,
    sales_group_id    BIGINT NOT NULL DEFAULT 0,
    product_id        BIGINT NOT NULL DEFAULT 0,
    trips             INTEGER NOT NULL DEFAULT 0,
    shipped_vt_l      DOUBLE PRECISION    NOT NULL DEFAULT 0,
    shipped_v20_l     DOUBLE PRECISION    NOT NULL DEFAULT 0,
    shipped_t         DOUBLE PRECISION    NOT NULL DEFAULT 0,
    received_v20_l    DOUBLE PRECISION    NOT NULL DEFAULT 0,
    loss_l            DOUBLE PRECISION    NOT NULL DEFAULT 0,
    km                DOUBLE PRECISION    NOT NULL DEFAULT 0,
    ton_km            DOUBLE PRECISION    NOT NULL DEFAULT 0,
    timed_trips       INTEGER NOT NULL DEFAULT 0,
    out_to_arrival_min DOUBLE PRECISION   NOT NULL DEFAULT 0,
    abnormal_openings INTEGER NOT NULL DEFAULT 0,
    over_allowance    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (car_id, day, group_id, sales_group_id, product_id)
);
CREATE INDEX stat_trip_daily_group_day ON stat_trip_daily (group_id, day);
CREATE INDEX stat_trip_daily_sales_day ON stat_trip_daily (sales_group_id, day);
CREATE INDEX stat_trip_daily_day ON stat_trip_daily (day);

-- Rollup work to do (an outbox): a writer marks (kind, car, day) in the transaction that changes the
-- records a rollup reads ("trip": a waybill finished or its figures changed; "lock": a lock event;
-- "seal": a seal record or incident); the rollup worker takes the marks and recomputes those rows.
CREATE TABLE stat_dirty (
    kind      TEXT    NOT NULL,
    car_id    BIGINT  NOT NULL,
    day       INTEGER NOT NULL,
    marked_at BIGINT  NOT NULL,
    PRIMARY KEY (kind, car_id, day)
);

-- +goose Down
DROP TABLE stat_dirty;
DROP TABLE stat_trip_daily;
DROP TABLE seal_incidents;
DROP TABLE seal_records;
DROP TABLE car_blacklist;
DROP TABLE lock_events;
DROP TABLE lock_binds;
DROP TABLE locks;
