// Track replay of a simulated car: its positions so far play, pause and seek.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, uiLogin } from './lib.mjs';

const MONITOR = '/monitor-app/realTimeMoitoring';

function shanghai(date) {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false,
  }).format(date);
}

describe('track replay', () => {
  const env = setup();

  test('a simulated car’s track plays, pauses and seeks', async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    // a moving car with a few positions today
    const deadline = Date.now() + 60_000;
    let car;
    let track;
    for (;;) {
      const moving = (await api(env.base, 'POST', `${MONITOR}/findCars`, { token: admin.access_token, body: { code: 4, pageNum: 1, pageSize: 5 } })).body.data?.list ?? [];
      car = moving[0];
      if (car) {
        const q = `carId=${car.carId}&startTime=${encodeURIComponent(shanghai(new Date(Date.now() - 3600_000)))}&endTime=${encodeURIComponent(shanghai(new Date(Date.now() + 60_000)))}`;
        track = (await api(env.base, 'GET', `${MONITOR}/track?${q}`, { token: admin.access_token })).body.data;
        if (track?.points?.length >= 3) break;
      }
      assert.ok(Date.now() < deadline, 'a moving car with three positions within a minute');
      await new Promise((r) => setTimeout(r, 2000));
    }
    const last = track.points[track.points.length - 1].time;

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto(`/#/manager/trackReplaying?carId=${car.carId}`);
      await page.getByTestId('track-query').click();
      await page.getByTestId('track-player').waitFor();
      const now = page.getByTestId('track-now');
      const start = (await now.textContent()).slice(0, 19);
      assert.equal(start, track.points[0].time, 'starts at the first position');
      assert.ok(Number(await page.getByTestId('track-summary').locator('.ant-statistic').nth(3).locator('.ant-statistic-content-value').textContent()) >= 3);

      await page.getByTestId('track-speed').click();
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: '10×' }).click();
      await page.getByTestId('track-play').click();
      await page.waitForFunction((s) => !document.querySelector('[data-testid="track-now"]')?.textContent?.startsWith(s), start);
      await page.getByTestId('track-pause').click();
      const paused = (await now.textContent()).slice(0, 19);
      await page.waitForTimeout(600);
      assert.equal((await now.textContent()).slice(0, 19), paused, 'pause stops the clock');

      // seek: the slider's End key jumps to the last position
      await page.locator('.tw-player-slider .ant-slider-handle').focus();
      await page.keyboard.press('End');
      // (the page asked a little later than this test, so its last position may be newer)
      await page.waitForFunction((s) => (document.querySelector('[data-testid="track-now"]')?.textContent ?? '').slice(0, 19) >= s, last);
    });
  });
});
