// Lock and seal statistics (D54): every page opens on the demo with its totals row, the export is a real
// xlsx, and a total clicked opens a drawer whose rows add up to the number clicked.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { setup, tr, uiLogin, waitForPage } from './lib.mjs';

const zh = (key) => tr('zh-CN', key);
const PAGES = ['blueLockStat', 'blueLockStat2', 'blueLockWeekStat', 'blueLockMonthStat', 'sealRecordStat', 'sealRecordWeekStat', 'sealRecordMonthStat'];

/** Opens a statistics page and returns its pane and the page's first answer (what the table shows). */
async function open(page, name) {
  const answer = page.waitForResponse((r) => r.url().endsWith(`/monitor-app/${name}/page`));
  await page.goto(`/#/manager/${name}`);
  const pane = await waitForPage(page, `/manager/${name}`);
  const body = await (await answer).json();
  assert.equal(body.code, 1, `${name}: ${JSON.stringify(body)}`);
  await pane.getByTestId('totals-row').waitFor();
  return { pane, data: body.data };
}

describe('lock and seal statistics', () => {
  const env = setup();

  test('every page opens with its totals; the export downloads a real xlsx', { timeout: 120_000 }, async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      for (const name of PAGES) {
        const { pane, data } = await open(page, name);
        const col = name.startsWith('seal') ? 'applied' : 'opened';
        const shown = (await pane.getByTestId(`total-${col}`).textContent()).trim();
        assert.equal(shown, String(data.totals[col]), `${name}: the totals row shows the server's total`);
        if (data.total === 0) await pane.getByText(zh(`lockStats.empty.${name.startsWith('seal') ? 'seal' : 'lock'}`)).first().waitFor();
        if (name === 'blueLockStat' || name === 'sealRecordMonthStat') {
          const [download] = await Promise.all([page.waitForEvent('download'), pane.locator('button').filter({ hasText: /导\s*出/ }).click()]);
          assert.match(download.suggestedFilename(), /\.xlsx$/);
          const bytes = readFileSync(await download.path());
          assert.equal(bytes.subarray(0, 2).toString(), 'PK', 'an xlsx is a zip');
          assert.ok(bytes.includes('xl/worksheets/sheet1.xml'), 'with a worksheet');
        }
      }
    });
  });

  test('a total clicked lists as many rows as it counts', { timeout: 90_000 }, async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      let checked = 0;
      for (const name of ['blueLockMonthStat', 'sealRecordMonthStat']) {
        const { pane, data } = await open(page, name);
        const first = Object.keys(data.totals).find((k) => data.totals[k] > 0 && k !== 'opened' && k !== 'offlineS');
        for (const col of [first, data.totals.offlineS > 0 ? 'offlineS' : undefined].filter(Boolean)) {
          await pane.getByTestId(`total-${col}`).click();
          const sum = page.getByTestId('drill-sum');
          await sum.waitFor();
          assert.equal(Number(await sum.getAttribute('data-value')), data.totals[col], `${name} ${col}: the drawer adds up to the total`);
          if (col !== 'offlineS') assert.equal(Number(await sum.getAttribute('data-rows')), data.totals[col], `${name} ${col}: one row per count`);
          const rows = page.locator('.ant-drawer .ant-table-tbody tr.ant-table-row');
          await rows.first().waitFor();
          assert.equal(await rows.count(), Math.min(20, Number(await sum.getAttribute('data-rows'))), 'the first page of rows');
          await page.keyboard.press('Escape');
          await sum.waitFor({ state: 'detached' });
          checked++;
        }
      }
      if (checked === 0) t.skip('the demo has no lock events or seal records in the last year (their parts seed them)');
    });
  });
});
