// The video monitoring wall (manager/videoMonitor): the demo fleet raises level-I alarms (every truck breaks
// its seal on its first loaded trip, --demo-incident seal_broken), the alarm push reaches the open page and
// the car's cameras come up on the wall and decode; then a rotation through a ticked car.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, assertVideoDecodes, setup, uiLogin, until } from './lib.mjs';

describe('videoMonitor', () => {
  // simulated time 300× faster: the trucks load and break their seals on the way within a minute or two
  const env = setup({ args: ['--demo-vehicles', '4', '--demo-speedup', '300', '--demo-incident', 'seal_broken'] });

  test('an alarm brings its car’s cameras up on the wall; a ticked car rotates; leaving stops the streams', { timeout: 240_000 }, async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const token = admin.access_token;
    const liveStreams = async () => (await api(env.base, 'POST', '/base-info-app/carInfo/reportLiveVideos', { token, body: {} })).body.data ?? [];

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/manager/videoMonitor');
      await page.getByTestId('video-monitor-page').waitFor();
      // waiting for alarms — unless the fleet's first alarm came while the page loaded (the machine may be busy)
      await page.getByTestId('vm-empty').filter({ hasText: '等待报警…' }).or(page.locator('[data-testid^="vm-alarm-"]').first()).waitFor();
      assert.equal(await page.locator('[data-testid="vm-wall"] .tw-vl-tile').count(), 4, 'the 4-layout is the default');

      // the first alarm pushed while the page is open brings its car's channels up. Newer alarms replace
      // the oldest tiles: following stops at once, so that the wall holds still for the checks
      await page.locator('[data-testid^="vm-alarm-"]').first().waitFor({ timeout: 180_000 });
      await page.getByTestId('vm-follow').click();
      await page.locator('[data-testid="vm-follow"][aria-checked="false"]').waitFor();
      const badge = page.locator('[data-testid^="vm-alarm-"]').first();
      const alarmId = await badge.getAttribute('data-alarm');
      const tile = page.locator('.tw-vl-tile').filter({ has: page.locator(`[data-alarm="${alarmId}"]`) }).first();
      const carId = Number(await tile.getAttribute('data-car'));
      const r = await api(env.base, 'POST', '/alarm-app/alarmMessage/findListByCarId', { token, body: { carId, limit: 50 } });
      const rec = r.body.data.find((a) => String(a.id) === alarmId);
      assert.ok(rec, `alarm ${alarmId} of car ${carId} is recorded: ${JSON.stringify(r.body.data.slice(0, 3))}`);
      assert.ok(rec.level <= 2, 'a pushed (level I–II) alarm');
      const text = await badge.innerText();
      assert.ok(text.includes(rec.typeName), `${text} names ${rec.typeName}`);
      assert.match(text, /级.*\d\d-\d\d \d\d:\d\d:\d\d/);
      assert.match(await tile.locator('.tw-vl-name').innerText(), new RegExp(rec.carNumber.replace(/[·.]/g, '.')));
      await assertVideoDecodes(tile);
      await tile.and(page.locator('[data-status="playing"]')).waitFor();
      // every tile of this alarm plays a channel of its car
      const cars = await page.locator('.tw-vl-tile').filter({ has: page.locator(`[data-alarm="${alarmId}"]`) }).evaluateAll((els) => els.map((e) => Number(e.dataset.car)));
      assert.ok(cars.length >= 1 && cars.every((c) => c === carId), JSON.stringify(cars));

      // pin the tile: it stays when the wall is used by the rotation
      const index = Number((await tile.getAttribute('data-testid')).replace('vl-tile-', ''));
      await page.getByTestId(`vm-pin-${index}`).click();
      await page.locator(`[data-testid="vm-pin-${index}"].on`).waitFor();
      const pinned = await tile.getAttribute('data-channel');

      // rotation: free the other tiles, tick one other car, start
      for (let i = 0; i < 4; i++) if (i !== index) await page.getByTestId(`vl-close-${i}`).click();
      const other = (await api(env.base, 'POST', '/monitor-app/realTimeMoitoring/findCars', { token, body: { pageNum: 1, pageSize: 100 } })).body.data.list.find(
        (c) => c.carId !== carId && c.code !== 7,
      );
      assert.ok(other, 'another online car');
      await page.getByTestId('vm-search').fill(other.plate);
      await page.getByTestId(`vm-car-${other.carId}`).locator('xpath=ancestor::div[contains(@class,"ant-tree-treenode")]').locator('.ant-tree-checkbox').click();
      await page.getByTestId('vm-start').click();
      await page.getByTestId('vm-rotation-note').filter({ hasText: '已选 1 辆车，4 路摄像头' }).waitFor();
      const rotating = page.locator(`[data-testid="vm-wall"] .tw-vl-tile[data-car="${other.carId}"]`);
      await until(async () => (await rotating.count()) === 3, { what: 'three tiles of the rotated car' });
      await assertVideoDecodes(rotating.first());
      assert.equal(await page.locator(`.tw-vl-tile[data-car="${carId}"][data-channel="${pinned}"]`).count(), 1, 'the pinned tile stayed');
      await page.getByTestId('vm-pause').filter({ hasText: '暂停轮巡' }).click();
      await page.getByTestId('vm-rotation-note').filter({ hasText: '已暂停' }).waitFor();

      // leaving the page stops its streams (at once, or after the 30 s linger had a viewer been counted)
      await page.getByTestId('monitor-back').click();
      await page.waitForURL(/#\/home$/);
      await until(async () => (await liveStreams()).length === 0, { timeout: 45_000, what: 'every stream to be released' });
    });
  });
});
