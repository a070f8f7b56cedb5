import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, assertVideoDecodes, setup, uiLogin, until } from './lib.mjs';

const liveStreams = async (base, token) => {
  const { body } = await api(base, 'POST', '/base-info-app/carInfo/reportLiveVideos', { token, body: {} });
  assert.equal(body.code, 1, JSON.stringify(body));
  return body.data ?? [];
};

/** Waits until tile `index` decodes and says it is playing. */
async function assertDecodes(page, index) {
  const tile = page.locator(`[data-testid="vl-tile-${index}"]`);
  await assertVideoDecodes(tile);
  await tile.and(page.locator('[data-status="playing"]')).waitFor();
}

describe('videoLive', () => {
  const env = setup();

  test('plays a demo car channel, four tiles at once, and releases the streams on leaving', async (t) => {
    const session = await apiLogin(env.base, 'admin', 'admin123');
    const token = session.access_token;
    // the demo terminals connect over JT/T 808 shortly after start: wait until four cars are online
    const online = await until(
      async () => {
        const { body } = await api(env.base, 'POST', '/monitor-app/realTimeMoitoring/findCars', { token, body: { pageNum: 1, pageSize: 100 } });
        // always the fleet's first three cars, once they are online: the first three to come online vary,
        // and some simulated cameras send AAC instead of G.711 or lose packets on purpose (D88)
        const first3 = (body.data?.list ?? []).sort((a, b) => a.carId - b.carId).slice(0, 3);
        return first3.length === 3 && first3.every((c) => c.code !== 7) ? first3 : null;
      },
      { what: 'the first three demo cars online' },
    );
    const [a, b, c] = online;

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/manager/videoLive');
      await page.locator('[data-testid="video-live-page"]').waitFor();
      await page.locator('[data-testid="vl-empty"]').filter({ hasText: '点击左侧通道播放' }).waitFor();
      assert.equal(await page.locator('[data-testid="vl-wall"] .tw-vl-tile').count(), 4, 'the 4-layout is the default');

      // A car's row opens and closes its channels (a car opened for an earlier channel is still open,
      // since the tree keeps what was opened across searches), and a click on a channel that is still
      // coming in can play nothing: open the row until the channel shows, click it until its entry is
      // marked playing.
      const playChannel = async (car, channelNo) => {
        const search = page.locator('[data-testid="vl-search"]');
        const row = page.locator(`[data-testid="vl-car-${car.carId}"]`);
        const ch = page.locator(`[data-testid="vl-channel-${car.carId}-${channelNo}"]`);
        const playing = page.locator(`.tw-vl-chan.playing[data-testid="vl-channel-${car.carId}-${channelNo}"]`);
        await search.fill(car.plate);
        await until(
          async () => {
            if (!(await ch.isVisible())) {
              await row.click();
              await ch.waitFor({ timeout: 3_000 }).catch(() => undefined);
              return false;
            }
            await ch.click();
            await playing.waitFor({ timeout: 3_000 }).catch(() => undefined);
            return (await playing.count()) > 0;
          },
          { what: `channel ${channelNo} of ${car.plate} playing` },
        );
        await search.fill('');
      };

      // one channel: the first free tile plays it
      await playChannel(a, 1);
      const tile0 = page.locator('[data-testid="vl-tile-0"]');
      await tile0.and(page.locator(`[data-car="${a.carId}"][data-channel="1"]`)).waitFor();
      await assertDecodes(page, 0);
      assert.match(await tile0.locator('.tw-vl-name').innerText(), new RegExp(a.plate.replace(/[·.]/g, '.')));
      assert.equal(await page.locator('[data-testid="vl-empty"]').count(), 0);

      // four tiles: two channels of one car and two other cars
      await playChannel(a, 2);
      await playChannel(b, 1);
      await playChannel(c, 1);
      for (let i = 0; i < 4; i++) await assertDecodes(page, i);
      const shown = await page.locator('[data-testid="vl-wall"] .tw-vl-tile').evaluateAll((els) => els.map((e) => `${e.dataset.car}-${e.dataset.channel}`));
      assert.deepEqual(shown, [`${a.carId}-1`, `${a.carId}-2`, `${b.carId}-1`, `${c.carId}-1`]);
      const streams = await liveStreams(env.base, token);
      for (const key of shown) {
        const s = streams.find((x) => `${x.carId}-${x.channelNo}` === key);
        assert.ok(s && s.viewers >= 1 && s.receiving, `stream ${key} watched: ${JSON.stringify(s)}`);
      }

      // a screenshot of a tile downloads plate-channel-time.png
      const download = page.waitForEvent('download');
      await page.locator('[data-testid="vl-snapshot-0"]').click();
      const file = (await download).suggestedFilename();
      assert.ok(file.startsWith(`${a.plate}-`) && /-\d{14}\.png$/.test(file), file);

      // sound on one tile at a time: its G.711 socket opens and brings frames; another tile's speaker
      // closes the first socket
      const audioSocket = async (trigger) => {
        const wsP = page.waitForEvent('websocket', (w) => w.url().includes('/g711?token='));
        await trigger();
        const ws = await wsP;
        await ws.waitForEvent('framereceived');
        return ws;
      };
      const first = await audioSocket(() => page.locator('[data-testid="vl-audio-0"]').click());
      await page.locator('[data-testid="vl-audio-0"].on').waitFor();
      const firstClosed = first.isClosed() ? Promise.resolve() : first.waitForEvent('close');
      await audioSocket(() => page.locator('[data-testid="vl-audio-1"]').click());
      await firstClosed;
      await page.locator('[data-testid="vl-audio-1"].on').waitFor();
      assert.equal(await page.locator('[data-testid="vl-audio-0"].on').count(), 0, 'one tile has the sound');

      // closing a tile frees it and stops its stream (nobody else watches it)
      await page.locator('[data-testid="vl-close-3"]').click();
      await page.locator('[data-testid="vl-tile-3"][data-status="empty"]').waitFor();
      await until(async () => !(await liveStreams(env.base, token)).some((x) => x.carId === c.carId && x.channelNo === 1), { what: 'the closed tile’s stream to stop' });

      // leaving the page destroys the players and stops the page's streams: released at once (or, had
      // the server still counted a viewer, after the 30 s linger — docs/API.md)
      const left = Date.now();
      await page.locator('[data-testid="monitor-back"]').click();
      await page.waitForURL(/#\/home$/);
      await until(async () => (await liveStreams(env.base, token)).length === 0, { timeout: 45_000, what: 'every stream to be released' });
      t.diagnostic(`streams released ${Date.now() - left} ms after leaving the page`);
    });
  });

  test('a 16-tile wall of simulated cars decodes on every tile, and the chosen tile plays sound', { timeout: 180_000 }, async (t) => {
    const session = await apiLogin(env.base, 'admin', 'admin123');
    const cars = await until(
      async () => {
        const { body } = await api(env.base, 'POST', '/monitor-app/realTimeMoitoring/findCars', { token: session.access_token, body: { pageNum: 1, pageSize: 100 } });
        const on = (body.data?.list ?? []).filter((c) => c.code !== 7).sort((a, b) => a.carId - b.carId);
        return on.length >= 4 ? on.slice(0, 4) : null;
      },
      { what: 'four online demo cars' },
    );

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/manager/videoLive');
      await page.locator('[data-testid="vl-layout-16"]').click();
      await until(async () => (await page.locator('[data-testid="vl-wall"] .tw-vl-tile').count()) === 16, { what: 'sixteen tiles' });
      // four cars × four channels, each to the next free tile
      const started = Date.now();
      for (const car of cars) {
        await page.locator('[data-testid="vl-search"]').fill(car.plate);
        await page.locator(`[data-testid="vl-car-${car.carId}"]`).click();
        for (let ch = 1; ch <= 4; ch++) await page.locator(`[data-testid="vl-channel-${car.carId}-${ch}"]`).click();
      }
      await page.locator('[data-testid="vl-search"]').fill('');
      const tiles = page.locator('[data-testid="vl-wall"] .tw-vl-tile');
      const shown = await tiles.evaluateAll((els) => els.map((e) => `${e.dataset.car}-${e.dataset.channel}`));
      assert.deepEqual(shown, cars.flatMap((c) => [1, 2, 3, 4].map((ch) => `${c.carId}-${ch}`)));
      await Promise.all(Array.from({ length: 16 }, (_, i) => assertVideoDecodes(page.locator(`[data-testid="vl-tile-${i}"]`))));
      t.diagnostic(`16 tiles decoding ${Date.now() - started} ms after the first channel was clicked`);
      // every tile's decoder keeps producing pictures: decoded frame counts all grow over the next second
      const frames = () => tiles.evaluateAll((els) => els.map((e) => e.querySelector('video').getVideoPlaybackQuality().totalVideoFrames));
      const before = await frames();
      await until(async () => (await frames()).every((n, i) => n > before[i] + 5), { what: 'frames advancing on all 16 tiles', every: 200 });
      const sizes = await tiles.evaluateAll((els) => els.map((e) => e.querySelector('video').videoWidth));
      assert.ok(sizes.every((w) => w > 0), JSON.stringify(sizes));

      // sound on tile 5: its G.711 is decoded and played through Web Audio, and what the audio graph
      // puts out is not silence (the clip's tone, RMS ≈ 0.08)
      await page.locator('[data-testid="vl-audio-5"]').click();
      const tile5 = page.locator('[data-testid="vl-tile-5"]');
      const heard = await until(
        async () => {
          const samples = Number(await tile5.getAttribute('data-audio-samples'));
          const level = Number(await tile5.getAttribute('data-audio-level'));
          return samples >= 16_000 && level >= 10 ? { samples, level } : null;
        },
        { what: 'two seconds of sound heard on tile 5' },
      );
      t.diagnostic(`tile 5: ${heard.samples} samples decoded, level ${heard.level}‰`);
      assert.equal(await page.locator('[data-audio-samples]').count(), 1, 'one tile has the sound');
    });
  });
});
