-- +goose Up
-- The trend rollups (00018, DECISIONS D38) are no longer kept by insert triggers, two upserts per
-- inserted row: the history writer folds the rows a batch actually inserted into slices and upserts
-- each slice once, in the batch's transaction (internal/tank/trend/rollup, DECISIONS D99). Whatever
-- else inserts readings or positions calls rollup.Rebuild for what it inserted. The delete triggers
-- stay: retention deletes rows (SQLite, PostgreSQL's default partition) and their slices go with them.
DROP TRIGGER level_rollup_ins;
DROP TRIGGER speed_rollup_ins;

-- +goose Down
-- (rows inserted meanwhile are not in the slices: rebuild them, rollup.Rebuild)
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
