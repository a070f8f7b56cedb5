// Firmware upgrades (access/upgradePack): a package is uploaded through the browser (checksums shown),
// pushed to one demo truck (a simulated terminal connected over TCP) and followed until the terminal
// answers 0x0108 success ("acknowledged"); the push is in the history; an unused package is deleted.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, toast, tr, uiLogin, waitForPage } from './lib.mjs';

const zh = (key, vars = {}) => Object.entries(vars).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), tr('zh-CN', key));

describe('firmware upgrades', () => {
  const env = setup({ args: ['--demo-interval', '2s'] });

  test('upload a package, push it to a demo truck until acknowledged, delete a package', { timeout: 60_000 }, async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    let plate = '';
    for (let i = 0; i < 100 && !plate; i++) {
      const cars = (await api(env.base, 'POST', '/monitor-app/realTimeMoitoring/findCars', { token: admin.access_token, body: { carNumber: '', pageNum: 1, pageSize: 50 } })).body.data.list;
      plate = cars.find((c) => c.online)?.plate ?? '';
      if (!plate) await new Promise((r) => setTimeout(r, 200)); // polling the server's state, not waiting out a guess
    }
    assert.ok(plate, 'no demo truck online');
    const bytes = Buffer.alloc(30_000, 0);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 251;
    const sha = createHash('sha256').update(bytes).digest('hex');
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/access/upgradePack');
      const pane = await waitForPage(page, '/access/upgradePack');
      await pane.getByRole('button', { name: zh('firmware.upload') }).click();
      const form = page.getByRole('dialog');
      await form.locator('#upgradePack_manufacturer').fill('70111');
      await form.locator('#upgradePack_version').fill('E2E-3.0.1');
      await form.locator('input[type=file]').setInputFiles({ name: 'e2e-3.0.1.bin', mimeType: 'application/octet-stream', buffer: bytes });
      await form.getByTestId('upload-file-name').filter({ hasText: 'e2e-3.0.1.bin' }).waitFor();
      await form.getByRole('button', { name: /保\s*存/ }).click();
      await toast(page, zh('common.addSuccess')).waitFor();
      const row = pane.locator('tr.ant-table-row').filter({ hasText: 'E2E-3.0.1' });
      await row.filter({ hasText: sha.slice(0, 16) }).waitFor();

      // push to the online truck: the page moves to the progress tab, which follows it to the answer
      await row.getByRole('button', { name: zh('firmware.push') }).click();
      const push = page.getByRole('dialog');
      await push.getByTestId('push-cars').click();
      await page.keyboard.type(plate);
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: plate }).first().click();
      await push.getByRole('button', { name: /保\s*存/ }).click();
      const job = page.locator('tr.ant-table-row').filter({ hasText: plate }).filter({ hasText: 'E2E-3.0.1' });
      await job.getByTestId('job-state').filter({ hasText: zh('firmware.result.0') }).waitFor({ timeout: 30_000 });

      // the history lists the push
      await page.getByRole('tab', { name: zh('firmware.tabHistory'), exact: true }).click();
      await page.locator('tr.ant-table-row').filter({ hasText: 'E2E-3.0.1' }).filter({ hasText: 'admin' }).waitFor();

      // delete the demo BeiDou package (never pushed)
      await page.getByRole('tab', { name: zh('firmware.tabPackages'), exact: true }).click();
      const bd = page.locator('tr.ant-table-row').filter({ hasText: 'BD-M 1.4.2' });
      await bd.getByRole('button', { name: /删\s*除/ }).click();
      const confirm = page.locator('.ant-modal-confirm').filter({ hasText: '确定要删除该数据吗' });
      await confirm.getByRole('button', { name: /确\s*定/ }).click();
      await toast(page, '删除成功').waitFor();
      await bd.waitFor({ state: 'detached' });
    });
    const pkgs = (await api(env.base, 'POST', '/base-info-app/upgradePack/page', { token: admin.access_token, body: {} })).body.data.list;
    assert.deepEqual(pkgs.map((p) => p.version).sort(), ['E2E-3.0.1', 'TW-808T 2.1.0']);
  });
});
