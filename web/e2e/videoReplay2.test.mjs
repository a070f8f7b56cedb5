// Several channels of one car played in step (manager/videoReplaying2, D86): two channels of a demo car
// play from the same moment, both decode, and their pictures stay within a second of each other.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, assertDecodes, setup, uiLogin, until } from './lib.mjs';

describe('videoReplaying2', () => {
  const env = setup();

  test('two channels of a car play in step, seek together, pause together and stop', async (t) => {
    const session = await apiLogin(env.base, 'admin', 'admin123');
    const car = await until(
      async () => {
        const { body } = await api(env.base, 'POST', '/monitor-app/realTimeMoitoring/findCars', { token: session.access_token, body: { pageNum: 1, pageSize: 100 } });
        return (body.data?.list ?? []).filter((c) => c.code !== 7).sort((a, b) => a.carId - b.carId)[0];
      },
      { what: 'an online demo car' },
    );

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto(`/#/manager/videoReplaying2?carId=${car.carId}`);
      // the car's channels come ticked: keep 1 and 2
      await page.getByTestId('r2-ch-3').waitFor();
      for (const ch of [3, 4]) await page.getByTestId(`r2-ch-${ch}`).click();
      await page.getByTestId('r2-query').click();
      await page.getByTestId('r2-grid').waitFor();
      assert.equal(await page.locator('[data-testid="r2-timeline"] .tw-r2-lane').count(), 2);
      const segs = await page.locator('[data-testid="r2-lane-1"] .tw-replay-seg').count();
      assert.ok(segs >= 4, `${segs} recordings of channel 1 in the last four hours`);

      await page.getByTestId('r2-play').click();
      const tiles = [1, 2].map((ch) => page.getByTestId(`r2-tile-${ch}`));
      await Promise.all([1, 2].map((ch) => assertDecodes(page.getByTestId(`r2-video-${ch}`))));
      for (const tile of tiles) await tile.and(page.locator('[data-state="playing"]')).waitFor();

      // in step: over three seconds of playing, the two pictures are never more than a second apart
      const samples = await page.evaluate(
        () =>
          new Promise((resolve) => {
            const out = [];
            const read = () => [1, 2].map((ch) => Number(document.querySelector(`[data-testid="r2-tile-${ch}"]`)?.getAttribute('data-position')) || 0);
            const t0 = performance.now();
            const id = setInterval(() => {
              out.push(read());
              if (performance.now() - t0 > 3000) {
                clearInterval(id);
                resolve(out);
              }
            }, 250);
          }),
      );
      const gaps = samples.filter(([a, b]) => a && b).map(([a, b]) => Math.abs(a - b));
      t.diagnostic(`gaps between the channels (ms): ${gaps.join(' ')}`);
      assert.ok(gaps.length >= 8, `${gaps.length} readings with both positions`);
      assert.ok(Math.max(...gaps) <= 1000, `channels apart by ${Math.max(...gaps)} ms`);
      const [first, last] = [samples[0], samples[samples.length - 1]];
      assert.ok(last[0] - first[0] > 1500 && last[1] - first[1] > 1500, `both advanced: ${JSON.stringify([first, last])}`);

      // seek all: a click on the timeline two thirds along restarts both channels there, again in step
      const bar = page.getByTestId('r2-timeline');
      const box = await bar.boundingBox();
      await bar.click({ position: { x: box.width * 0.66, y: box.height / 2 } });
      const target = await until(async () => Number(await bar.getAttribute('data-seek')) || null, { what: 'the seek target' });
      const landed = await until(
        async () => {
          const p = await page.evaluate(() => [1, 2].map((ch) => Number(document.querySelector(`[data-testid="r2-tile-${ch}"][data-state="playing"]`)?.getAttribute('data-position')) || 0));
          return p.every((x) => Math.abs(x - target) < 60_000) ? p : null;
        },
        { what: 'both channels playing at the new place' },
      );
      t.diagnostic(`seek to ${target}: channels at ${landed.map((x) => x - target).join(', ')} ms from it`);
      assert.ok(landed.every((x) => x >= target - 1000 && x < target + 5000), `landed ${JSON.stringify(landed)} for ${target}`);
      assert.ok(Math.abs(landed[0] - landed[1]) <= 1000, `apart by ${Math.abs(landed[0] - landed[1])} ms after the seek`);

      // pause all: both pictures stop; resume: both move again
      await page.getByTestId('r2-pause').click();
      for (const tile of tiles) await tile.and(page.locator('[data-state="paused"]')).waitFor();
      const still = await page.evaluate(() => [1, 2].map((ch) => document.querySelector(`[data-testid="r2-video-${ch}"]`).paused));
      assert.deepEqual(still, [true, true]);
      await page.getByTestId('r2-pause').click();
      await Promise.all([1, 2].map((ch) => assertDecodes(page.getByTestId(`r2-video-${ch}`))));

      // stop all: the terminal's playbacks end and the tiles are idle
      await page.getByTestId('r2-stop').click();
      for (const tile of tiles) await tile.and(page.locator('[data-state="idle"]')).waitFor();
    });
  });
});
