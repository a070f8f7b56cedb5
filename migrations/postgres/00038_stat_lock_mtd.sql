-- +goose Up
-- Month-to-date running sums of the lock rollup (D80), as stat_trip_mtd is for the trips (D70): for
-- every key (car, carrier group, lock serial) that has a row in stat_lock_daily in a month,
-- one row per day from the key's first day in that month to the month's last day, holding the sum of
-- the key's daily rows from the 1st up to that day. A partial month [a, b] of a car or lock is then
-- row(b) - row(a-1): at most two rows per key and partial month, whatever the range (the per-lock page
-- blueLockStat2, by lock or by car). Dense on purpose (a day without events repeats the sum) so that
-- both reads are equality lookups on the day. Rewritten with the car's monthly rows
-- (lockstats.refreshMonths: after every refresh and in Rebuild); never edited. The seal pages have no
-- range counted as a whole (day, week and month pages only), so the seal rollup has no such layer.
CREATE TABLE stat_lock_mtd (
    day             INTEGER NOT NULL,
    car_id          BIGINT NOT NULL,
    group_id        BIGINT NOT NULL,
    serial          TEXT    NOT NULL,
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
    PRIMARY KEY (car_id, day, group_id, serial)
);
CREATE INDEX stat_lock_mtd_day ON stat_lock_mtd (day, group_id) INCLUDE (car_id, serial, opened_remote, opened_ble,
    opened_key, opened_other, opened_inside, opened_outside, closed, tampered, low_battery, offline_events, offline_s);
CREATE INDEX stat_lock_mtd_serial_day ON stat_lock_mtd (serial, day);

-- +goose Down
DROP TABLE stat_lock_mtd;
