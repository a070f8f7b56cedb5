// 铅封记录 (leadSealRecord, D53) on the running demo: the demo's trucks load (the depot's ticket carries a
// seal per compartment), and every truck breaks its seal on the way on its first loaded trip
// (--demo-incident seal_broken). Nobody clicks anything: the seals appear with their waybills, the seal
// broken on the way is an incident, the page's totals match its rows, and the export is a real xlsx.
// Two trucks at 1000× (their simulated clock runs ahead of the wall clock: the incidents' times are
// later than "now", so the incidents tab is searched without a time range).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, tr, uiLogin, waitForPage } from './lib.mjs';

const zh = (key) => tr('zh-CN', key);

describe('lead seal record page', () => {
  const env = setup({ args: ['--demo-vehicles', '2', '--demo-speedup', '1000', '--demo-misbehave', '0', '--demo-incident', 'seal_broken'] });

  test('the demo seals are listed with their waybills, a seal broken on the way is an incident, the export is an xlsx', { timeout: 60_000 }, async (t) => {
    const { access_token: token } = await apiLogin(env.base, 'admin', 'admin123');
    // wait (on conditions, never a sleep) for the first seal broken away
    let inc;
    for (const deadline = Date.now() + 35_000; !inc; ) {
      const r = await api(env.base, 'POST', '/monitor-app/leadSealRecord/incidents', { token, body: { kind: 2, sortField: 't', sortOrder: 'ascend' } });
      assert.equal(r.body.code, 1, JSON.stringify(r.body));
      inc = r.body.data.list[0];
      if (!inc) {
        assert.ok(Date.now() < deadline, `no seal broken away within 35 s; seals: ${JSON.stringify((await api(env.base, 'POST', '/monitor-app/leadSealRecord/page', { token, body: {} })).body.data?.totals)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    const seals = (await api(env.base, 'POST', '/monitor-app/leadSealRecord/page', { token, body: { waybillId: inc.waybillId } })).body.data;
    assert.ok(seals.total >= 1 && seals.list.every((s) => s.state === 3 && s.waybillNo === inc.waybillNo), JSON.stringify(seals));

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/manager/leadSealRecord');
      const pane = await waitForPage(page, '/manager/leadSealRecord');
      // the seals tab (this month): the totals of the set are the table's total
      const totals = pane.getByTestId('seal-totals');
      await totals.waitFor();
      const n = Number(/(\d+)/.exec(await totals.locator('strong').textContent())[1]);
      assert.ok(n >= 1, 'the demo applied seals this month');
      assert.equal(await pane.locator('.ant-pagination-total-text').textContent(), zh('common.total').replace('{{total}}', String(n)));
      // the broken seal by its number: its waybill, the state
      await pane.locator('input#sealNo').fill(inc.sealNo);
      await pane.getByRole('button', { name: /查\s*询/ }).click();
      const row = pane.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: inc.sealNo });
      await row.getByText(zh('leadSeal.states.3')).waitFor();
      await row.getByText(inc.waybillNo).waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), pane.locator('button').filter({ hasText: /导\s*出/ }).click()]);
      assert.match(download.suggestedFilename(), /\.xlsx$/);
      assert.equal(readFileSync(await download.path()).subarray(0, 2).toString(), 'PK'); // a zip: a real xlsx

      // the incidents tab, without a time range, by the waybill
      await pane.getByRole('tab', { name: zh('leadSeal.tabIncidents') }).click();
      await pane.getByTestId('incident-totals').waitFor();
      await pane.getByTestId('preset-select').hover();
      await pane.locator('[data-testid="preset-select"] .ant-select-clear').click();
      await pane.locator('input#waybillNo').fill(inc.waybillNo);
      await pane.getByRole('button', { name: /查\s*询/ }).click();
      const incRow = pane.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: inc.sealNo });
      await incRow.getByText(zh('leadSeal.kinds.2')).waitFor();
      await incRow.getByText(inc.waybillNo).waitFor();
      // the waybill opens its trip's timeline
      await incRow.getByTestId('waybill-link').click();
      await page.getByTestId('trip-view').getByText(inc.waybillNo).first().waitFor();
    });
  });
});
