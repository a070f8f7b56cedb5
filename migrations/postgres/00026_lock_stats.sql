-- +goose Up
-- Lock and seal statistics (issue 16, D54): the daily rollups the blueLock*Stat and sealRecord*Stat pages
-- read. Recomputed per (car, day) from lock_events / seal_records / seal_incidents by
-- lockstats.RefreshLock / RefreshSeal (the worker drains stat_dirty "lock" / "seal"); never edited.
-- day is the Asia/Shanghai date YYYYMMDD, week its ISO week YYYYWW (weeks start on Monday), month YYYYMM:
-- stored so that the week and month pages group in SQL on both dialects.

-- One row per day, car, carrier group (the event's group_id) and lock serial. Openings by method
-- (lock.Method*: remote, BLE, local key, other = not said), openings inside (station_id > 0) and outside
-- every fence, closings, tamper / low-battery / offline reports, and offline_s: the seconds from an
-- offline report to the lock's next offline/online report, split at midnight, each piece floored to the
-- second; an interval not ended yet runs to computed_at, the time of the refresh. Offline time goes to the car
-- and group of the offline report.
CREATE TABLE stat_lock_daily (
    day             INTEGER NOT NULL,
    week            INTEGER NOT NULL,
    month           INTEGER NOT NULL,
    car_id          BIGINT NOT NULL,
    group_id        BIGINT NOT NULL,
    serial          TEXT    NOT NULL,
    lock_id         BIGINT NOT NULL DEFAULT 0,
    opened_remote   INTEGER NOT NULL DEFAULT 0,
    opened_ble      INTEGER NOT NULL DEFAULT 0,
    opened_key      INTEGER NOT NULL DEFAULT 0,
    opened_other    INTEGER NOT NULL DEFAULT 0,
    opened_inside   INTEGER NOT NULL DEFAULT 0,
    opened_outside  INTEGER NOT NULL DEFAULT 0,
    closed          INTEGER NOT NULL DEFAULT 0,
    tampered        INTEGER NOT NULL DEFAULT 0,
    low_battery     INTEGER NOT NULL DEFAULT 0,
    offline_events  INTEGER NOT NULL DEFAULT 0,
    offline_s       BIGINT NOT NULL DEFAULT 0,
    computed_at     BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (car_id, day, group_id, serial)
);
CREATE INDEX stat_lock_daily_group_day ON stat_lock_daily (group_id, day);
CREATE INDEX stat_lock_daily_day ON stat_lock_daily (day);
CREATE INDEX stat_lock_daily_serial_day ON stat_lock_daily (serial, day);

-- One row per day, car and carrier group (the record's group_id): seals applied (applied_at), broken at
-- the destination and broken away (broken_at, by state), and the incidents by kind (t): number reused,
-- trip without seals, number mismatch.
CREATE TABLE stat_seal_daily (
    day           INTEGER NOT NULL,
    week          INTEGER NOT NULL,
    month         INTEGER NOT NULL,
    car_id        BIGINT NOT NULL,
    group_id      BIGINT NOT NULL,
    applied       INTEGER NOT NULL DEFAULT 0,
    broken_dest   INTEGER NOT NULL DEFAULT 0,
    broken_away   INTEGER NOT NULL DEFAULT 0,
    reused        INTEGER NOT NULL DEFAULT 0,
    no_seals      INTEGER NOT NULL DEFAULT 0,
    mismatch      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (car_id, day, group_id)
);
CREATE INDEX stat_seal_daily_group_day ON stat_seal_daily (group_id, day);
CREATE INDEX stat_seal_daily_day ON stat_seal_daily (day);

-- The same figures per calendar month (sums of the daily rows, recomputed with them): the month pages
-- and long per-lock ranges read 30 times fewer rows.
CREATE TABLE stat_lock_monthly (
    month           INTEGER NOT NULL,
    car_id          BIGINT NOT NULL,
    group_id        BIGINT NOT NULL,
    serial          TEXT    NOT NULL,
    lock_id         BIGINT NOT NULL DEFAULT 0,
    opened_remote   INTEGER NOT NULL DEFAULT 0,
    opened_ble      INTEGER NOT NULL DEFAULT 0,
    opened_key      INTEGER NOT NULL DEFAULT 0,
    opened_other    INTEGER NOT NULL DEFAULT 0,
    opened_inside   INTEGER NOT NULL DEFAULT 0,
    opened_outside  INTEGER NOT NULL DEFAULT 0,
    closed          INTEGER NOT NULL DEFAULT 0,
    tampered        INTEGER NOT NULL DEFAULT 0,
    low_battery     INTEGER NOT NULL DEFAULT 0,
    offline_events  INTEGER NOT NULL DEFAULT 0,
    offline_s       BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (car_id, month, group_id, serial)
);
CREATE INDEX stat_lock_monthly_group_month ON stat_lock_monthly (group_id, month);
CREATE INDEX stat_lock_monthly_month ON stat_lock_monthly (month);
CREATE TABLE stat_seal_monthly (
    month         INTEGER NOT NULL,
    car_id        BIGINT NOT NULL,
    group_id      BIGINT NOT NULL,
    applied       INTEGER NOT NULL DEFAULT 0,
    broken_dest   INTEGER NOT NULL DEFAULT 0,
    broken_away   INTEGER NOT NULL DEFAULT 0,
    reused        INTEGER NOT NULL DEFAULT 0,
    no_seals      INTEGER NOT NULL DEFAULT 0,
    mismatch      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (car_id, month, group_id)
);
CREATE INDEX stat_seal_monthly_group_month ON stat_seal_monthly (group_id, month);
CREATE INDEX stat_seal_monthly_month ON stat_seal_monthly (month);

-- The same per carrier group (sums over its cars), recomputed with them: the company rows, the totals
-- rows and the charts read a few thousand rows instead of the cars'.
CREATE TABLE stat_lock_group_daily (
    day           INTEGER NOT NULL,
    week          INTEGER NOT NULL,
    month         INTEGER NOT NULL,
    group_id      BIGINT NOT NULL,
    opened_remote   INTEGER NOT NULL DEFAULT 0,
    opened_ble      INTEGER NOT NULL DEFAULT 0,
    opened_key      INTEGER NOT NULL DEFAULT 0,
    opened_other    INTEGER NOT NULL DEFAULT 0,
    opened_inside   INTEGER NOT NULL DEFAULT 0,
    opened_outside  INTEGER NOT NULL DEFAULT 0,
    closed          INTEGER NOT NULL DEFAULT 0,
    tampered        INTEGER NOT NULL DEFAULT 0,
    low_battery     INTEGER NOT NULL DEFAULT 0,
    offline_events  INTEGER NOT NULL DEFAULT 0,
    offline_s       BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (group_id, day)
);
CREATE INDEX stat_lock_group_daily_day ON stat_lock_group_daily (day);
CREATE TABLE stat_lock_group_monthly (
    month         INTEGER NOT NULL,
    group_id      BIGINT NOT NULL,
    opened_remote   INTEGER NOT NULL DEFAULT 0,
    opened_ble      INTEGER NOT NULL DEFAULT 0,
    opened_key      INTEGER NOT NULL DEFAULT 0,
    opened_other    INTEGER NOT NULL DEFAULT 0,
    opened_inside   INTEGER NOT NULL DEFAULT 0,
    opened_outside  INTEGER NOT NULL DEFAULT 0,
    closed          INTEGER NOT NULL DEFAULT 0,
    tampered        INTEGER NOT NULL DEFAULT 0,
    low_battery     INTEGER NOT NULL DEFAULT 0,
    offline_events  INTEGER NOT NULL DEFAULT 0,
    offline_s       BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (group_id, month)
);
CREATE TABLE stat_seal_group_daily (
    day           INTEGER NOT NULL,
    week          INTEGER NOT NULL,
    month         INTEGER NOT NULL,
    group_id      BIGINT NOT NULL,
    applied       INTEGER NOT NULL DEFAULT 0,
    broken_dest   INTEGER NOT NULL DEFAULT 0,
    broken_away   INTEGER NOT NULL DEFAULT 0,
    reused        INTEGER NOT NULL DEFAULT 0,
    no_seals      INTEGER NOT NULL DEFAULT 0,
    mismatch      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (group_id, day)
);
CREATE INDEX stat_seal_group_daily_day ON stat_seal_group_daily (day);
CREATE TABLE stat_seal_group_monthly (
    month         INTEGER NOT NULL,
    group_id      BIGINT NOT NULL,
    applied       INTEGER NOT NULL DEFAULT 0,
    broken_dest   INTEGER NOT NULL DEFAULT 0,
    broken_away   INTEGER NOT NULL DEFAULT 0,
    reused        INTEGER NOT NULL DEFAULT 0,
    no_seals      INTEGER NOT NULL DEFAULT 0,
    mismatch      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (group_id, month)
);

-- An offline interval ends at the lock's next offline/online report: found by serial and time.
CREATE INDEX lock_events_serial_time ON lock_events (serial, t);
CREATE INDEX seal_records_car_broken ON seal_records (car_id, broken_at);
CREATE INDEX seal_incidents_car_time ON seal_incidents (car_id, t);

-- +goose Down
DROP INDEX seal_incidents_car_time;
DROP INDEX seal_records_car_broken;
DROP INDEX lock_events_serial_time;
DROP TABLE stat_seal_group_monthly;
DROP TABLE stat_seal_group_daily;
DROP TABLE stat_lock_group_monthly;
DROP TABLE stat_lock_group_daily;
DROP TABLE stat_seal_monthly;
DROP TABLE stat_lock_monthly;
DROP TABLE stat_seal_daily;
DROP TABLE stat_lock_daily;
