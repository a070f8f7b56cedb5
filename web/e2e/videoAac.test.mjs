// A demo terminal that sends AAC (the simulator's eighth: index 7) plays with its sound in the FLV:
// mpegts.js takes the audio track the header names and Chromium decodes it (D88).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, assertVideoDecodes, setup, uiLogin, until } from './lib.mjs';

// fleet.DemoTerminalPhone(7)
const AAC_PHONE = '013852600107';

describe('videoAac', () => {
  const env = setup();

  test('an AAC terminal’s tile decodes its audio from the FLV and the speaker unmutes it', async (t) => {
    const { access_token: token } = await apiLogin(env.base, 'admin', 'admin123');
    const car = await until(
      async () => {
        const { body } = await api(env.base, 'POST', '/monitor-app/realTimeMoitoring/findCars', { token, body: { pageNum: 1, pageSize: 100 } });
        const terms = await api(env.base, 'POST', '/base-info-app/terminal/page', { token, body: { phone: AAC_PHONE } });
        const carId = terms.body.data?.list?.[0]?.carId;
        return (body.data?.list ?? []).find((c) => c.carId === carId && c.code !== 7) ?? null;
      },
      { what: 'the AAC demo car online' },
    );
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/manager/videoLive');
      await page.locator('[data-testid="vl-search"]').fill(car.plate);
      await page.locator(`[data-testid="vl-car-${car.carId}"]`).click();
      await page.locator(`[data-testid="vl-channel-${car.carId}-1"]`).click();
      const tile = page.locator('[data-testid="vl-tile-0"]');
      await assertVideoDecodes(tile);
      const video = tile.locator('video');
      // Chromium's count of audio bytes it decoded from the element's media: AAC arrived and decoded
      await until(async () => (await video.evaluate((v) => v.webkitAudioDecodedByteCount ?? 0)) > 0, { what: 'AAC decoded' });
      assert.equal(await video.evaluate((v) => v.muted), true, 'silent until the speaker is turned on');
      await page.locator('[data-testid="vl-audio-0"]').click();
      await page.locator('[data-testid="vl-audio-0"].on').waitFor();
      await until(async () => (await video.evaluate((v) => v.muted)) === false, { what: 'the tile unmuted' });
    });
  });
});
