-- +goose Up
-- Trend rollups (issue 14, DECISIONS D38): five-minute (level_rollup, speed_rollup) and hourly (*_h)
-- summaries of level readings and positions, kept current by triggers on every insert, so a month's
-- trend reads ~2,200 hourly summaries instead of ~780,000 readings. b: the slice's start (Unix ms,
-- aligned to the epoch); n: readings in it;
-- t0/t1: the first and last reading's time; *0/*1 the first and last value, *lo/*hi the minimum and
-- maximum (a drop inside the slice stays visible). Level mm, temperature 0.1 °C, volumes litres, speed
-- 1/10 km/h. A deleted reading (retention) drops its whole slice.
CREATE TABLE level_rollup (
    car_id      INTEGER NOT NULL,
    b           INTEGER NOT NULL,
    compartment INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    t0          INTEGER NOT NULL,
    t1          INTEGER NOT NULL,
    lv0 INTEGER NOT NULL, lv1 INTEGER NOT NULL, lvlo INTEGER NOT NULL, lvhi INTEGER NOT NULL,
    vo0 REAL    NOT NULL, vo1 REAL    NOT NULL, volo REAL    NOT NULL, vohi REAL    NOT NULL,
    vs0 REAL    NOT NULL, vs1 REAL    NOT NULL, vslo REAL    NOT NULL, vshi REAL    NOT NULL,
    tp0 INTEGER NOT NULL, tp1 INTEGER NOT NULL, tplo INTEGER NOT NULL, tphi INTEGER NOT NULL,
    PRIMARY KEY (car_id, b, compartment)
) WITHOUT ROWID;

CREATE TABLE level_rollup_h (
    car_id      INTEGER NOT NULL,
    b           INTEGER NOT NULL,
    compartment INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    t0          INTEGER NOT NULL,
    t1          INTEGER NOT NULL,
    lv0 INTEGER NOT NULL, lv1 INTEGER NOT NULL, lvlo INTEGER NOT NULL, lvhi INTEGER NOT NULL,
    vo0 REAL    NOT NULL, vo1 REAL    NOT NULL, volo REAL    NOT NULL, vohi REAL    NOT NULL,
    vs0 REAL    NOT NULL, vs1 REAL    NOT NULL, vslo REAL    NOT NULL, vshi REAL    NOT NULL,
    tp0 INTEGER NOT NULL, tp1 INTEGER NOT NULL, tplo INTEGER NOT NULL, tphi INTEGER NOT NULL,
    PRIMARY KEY (car_id, b, compartment)
) WITHOUT ROWID;

-- +goose StatementBegin
CREATE TRIGGER level_rollup_ins AFTER INSERT ON level_readings BEGIN
    INSERT INTO level_rollup VALUES (NEW.car_id, NEW.t - (NEW.t % 300000), NEW.compartment, 1, NEW.t, NEW.t,
        NEW.level_mm, NEW.level_mm, NEW.level_mm, NEW.level_mm,
        NEW.volume_l, NEW.volume_l, NEW.volume_l, NEW.volume_l,
        NEW.v20_l, NEW.v20_l, NEW.v20_l, NEW.v20_l,
        NEW.temp_dc, NEW.temp_dc, NEW.temp_dc, NEW.temp_dc)
    ON CONFLICT (car_id, b, compartment) DO UPDATE SET n = n + 1,
        t0 = min(t0, excluded.t0), t1 = max(t1, excluded.t1),
        lv0 = CASE WHEN excluded.t0 < t0 THEN excluded.lv0 ELSE lv0 END,
        lv1 = CASE WHEN excluded.t1 >= t1 THEN excluded.lv1 ELSE lv1 END,
        lvlo = min(lvlo, excluded.lvlo), lvhi = max(lvhi, excluded.lvhi),
        vo0 = CASE WHEN excluded.t0 < t0 THEN excluded.vo0 ELSE vo0 END,
        vo1 = CASE WHEN excluded.t1 >= t1 THEN excluded.vo1 ELSE vo1 END,
        volo = min(volo, excluded.volo), vohi = max(vohi, excluded.vohi),
        vs0 = CASE WHEN excluded.t0 < t0 THEN excluded.vs0 ELSE vs0 END,
        vs1 = CASE WHEN excluded.t1 >= t1 THEN excluded.vs1 ELSE vs1 END,
        vslo = min(vslo, excluded.vslo), vshi = max(vshi, excluded.vshi),
        tp0 = CASE WHEN excluded.t0 < t0 THEN excluded.tp0 ELSE tp0 END,
        tp1 = CASE WHEN excluded.t1 >= t1 THEN excluded.tp1 ELSE tp1 END,
        tplo = min(tplo, excluded.tplo), tphi = max(tphi, excluded.tphi);

    INSERT INTO level_rollup_h VALUES (NEW.car_id, NEW.t - (NEW.t % 3600000), NEW.compartment, 1, NEW.t, NEW.t,
        NEW.level_mm, NEW.level_mm, NEW.level_mm, NEW.level_mm,
        NEW.volume_l, NEW.volume_l, NEW.volume_l, NEW.volume_l,
        NEW.v20_l, NEW.v20_l, NEW.v20_l, NEW.v20_l,
        NEW.temp_dc, NEW.temp_dc, NEW.temp_dc, NEW.temp_dc)
    ON CONFLICT (car_id, b, compartment) DO UPDATE SET n = n + 1,
        t0 = min(t0, excluded.t0), t1 = max(t1, excluded.t1),
        lv0 = CASE WHEN excluded.t0 < t0 THEN excluded.lv0 ELSE lv0 END,
        lv1 = CASE WHEN excluded.t1 >= t1 THEN excluded.lv1 ELSE lv1 END,
        lvlo = min(lvlo, excluded.lvlo), lvhi = max(lvhi, excluded.lvhi),
        vo0 = CASE WHEN excluded.t0 < t0 THEN excluded.vo0 ELSE vo0 END,
        vo1 = CASE WHEN excluded.t1 >= t1 THEN excluded.vo1 ELSE vo1 END,
        volo = min(volo, excluded.volo), vohi = max(vohi, excluded.vohi),
        vs0 = CASE WHEN excluded.t0 < t0 THEN excluded.vs0 ELSE vs0 END,
        vs1 = CASE WHEN excluded.t1 >= t1 THEN excluded.vs1 ELSE vs1 END,
        vslo = min(vslo, excluded.vslo), vshi = max(vshi, excluded.vshi),
        tp0 = CASE WHEN excluded.t0 < t0 THEN excluded.tp0 ELSE tp0 END,
        tp1 = CASE WHEN excluded.t1 >= t1 THEN excluded.tp1 ELSE tp1 END,
        tplo = min(tplo, excluded.tplo), tphi = max(tphi, excluded.tphi);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER level_rollup_del AFTER DELETE ON level_readings BEGIN
    DELETE FROM level_rollup WHERE car_id = OLD.car_id AND b = OLD.t - (OLD.t % 300000) AND compartment = OLD.compartment;
    DELETE FROM level_rollup_h WHERE car_id = OLD.car_id AND b = OLD.t - (OLD.t % 3600000) AND compartment = OLD.compartment;
END;
-- +goose StatementEnd

CREATE TABLE speed_rollup (
    car_id INTEGER NOT NULL,
    b      INTEGER NOT NULL,
    n      INTEGER NOT NULL,
    t0     INTEGER NOT NULL,
    t1     INTEGER NOT NULL,
    sp0 INTEGER NOT NULL, sp1 INTEGER NOT NULL, splo INTEGER NOT NULL, sphi INTEGER NOT NULL,
    PRIMARY KEY (car_id, b)
) WITHOUT ROWID;

CREATE TABLE speed_rollup_h (
    car_id INTEGER NOT NULL,
    b      INTEGER NOT NULL,
    n      INTEGER NOT NULL,
    t0     INTEGER NOT NULL,
    t1     INTEGER NOT NULL,
    sp0 INTEGER NOT NULL, sp1 INTEGER NOT NULL, splo INTEGER NOT NULL, sphi INTEGER NOT NULL,
    PRIMARY KEY (car_id, b)
) WITHOUT ROWID;

-- +goose StatementBegin
CREATE TRIGGER speed_rollup_ins AFTER INSERT ON positions BEGIN
    INSERT INTO speed_rollup VALUES (NEW.car_id, NEW.t - (NEW.t % 300000), 1, NEW.t, NEW.t,
        NEW.speed, NEW.speed, NEW.speed, NEW.speed)
    ON CONFLICT (car_id, b) DO UPDATE SET n = n + 1,
        t0 = min(t0, excluded.t0), t1 = max(t1, excluded.t1),
        sp0 = CASE WHEN excluded.t0 < t0 THEN excluded.sp0 ELSE sp0 END,
        sp1 = CASE WHEN excluded.t1 >= t1 THEN excluded.sp1 ELSE sp1 END,
        splo = min(splo, excluded.splo), sphi = max(sphi, excluded.sphi);

    INSERT INTO speed_rollup_h VALUES (NEW.car_id, NEW.t - (NEW.t % 3600000), 1, NEW.t, NEW.t,
        NEW.speed, NEW.speed, NEW.speed, NEW.speed)
    ON CONFLICT (car_id, b) DO UPDATE SET n = n + 1,
        t0 = min(t0, excluded.t0), t1 = max(t1, excluded.t1),
        sp0 = CASE WHEN excluded.t0 < t0 THEN excluded.sp0 ELSE sp0 END,
        sp1 = CASE WHEN excluded.t1 >= t1 THEN excluded.sp1 ELSE sp1 END,
        splo = min(splo, excluded.splo), sphi = max(sphi, excluded.sphi);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER speed_rollup_del AFTER DELETE ON positions BEGIN
    DELETE FROM speed_rollup WHERE car_id = OLD.car_id AND b = OLD.t - (OLD.t % 300000);
    DELETE FROM speed_rollup_h WHERE car_id = OLD.car_id AND b = OLD.t - (OLD.t % 3600000);
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER speed_rollup_del;
DROP TRIGGER speed_rollup_ins;
DROP TABLE speed_rollup_h;
DROP TABLE speed_rollup;
DROP TRIGGER level_rollup_del;
DROP TRIGGER level_rollup_ins;
DROP TABLE level_rollup_h;
DROP TABLE level_rollup;
