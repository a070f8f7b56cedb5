// Remote calibration end to end (远程标定, 04-08): the administrator picks a demo car, reads its terminal's
// parameters (0x8104 to the simulated terminal, the command is followed until acknowledged and the values
// show), changes compartment 1's probe zero offset, confirms the change listed old → new, sees the set
// (0x8103) acknowledged, reads again and sees the terminal's new value, and finds the change in the history.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, tile, tr, uiLogin, waitForPage } from './lib.mjs';

const zh = (key) => tr('zh-CN', key);
/** antd puts a space between two CJK characters of a button (下 发), so match either. */
const spaced = (text) => new RegExp(`^${[...text].join('\\s*')}$`);
const OFFSET_1 = 0xf011; // compartment 1, zero offset (docs/PROTOCOL.md)

describe('remote calibration', () => {
  const env = setup();

  test('read a demo car, change a probe offset, see it acknowledged, read it back, find it in the history', async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    // a demo car whose terminal is connected (the demo fleet logs in at start-up)
    const { body: cars } = await api(env.base, 'POST', '/monitor-app/realTimeMoitoring/findCars', { token: admin.access_token, body: {} });
    assert.equal(cars.code, 1, JSON.stringify(cars));
    let car;
    for (let i = 0; i < 300 && !car; i++) {
      for (const c of (cars.data.list ?? cars.data).slice(0, 5)) {
        const { body } = await api(env.base, 'POST', '/monitor-app/parameter/values', { token: admin.access_token, body: { carId: c.carId } });
        if (body.code === 1 && body.data.online) {
          car = body.data;
          break;
        }
      }
      if (!car) await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(car, 'a demo car online');
    const plate = car.plate;

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await tile(page, 'manager').click();
      await page.locator('.tw-sider-menu .ant-menu-item').filter({ hasText: zh('menu.parameter') }).click();
      const pane = await waitForPage(page, '/manager/parameter');
      await pane.getByText(zh('parameter.pickCar')).waitFor();

      // pick the car by its plate
      const picker = pane.locator('[data-testid="vehicle-picker"]').first();
      await picker.click();
      await page.keyboard.type(plate.replace('·', '').slice(0, 4));
      await page.locator('.ant-select-item-option').filter({ hasText: plate }).first().click();
      const form = pane.locator('[data-testid="parameter-form"]');
      await form.waitFor();
      await pane.getByText(zh('parameter.online')).waitFor();

      // read: the command is followed until the terminal answers; the values fill the form
      await pane.getByTestId('parameter-read').click();
      const status = pane.locator('[data-testid="parameter-status"]');
      await status.and(page.locator('[data-state="acknowledged"]')).waitFor({ timeout: 30_000 });
      const offset = form.locator(`#p${OFFSET_1}`);
      await page.waitForFunction((id) => document.querySelector(id)?.value === '0', `#p${OFFSET_1}`);
      assert.equal(await form.locator('#p85').inputValue(), '80', 'maximum speed read from the terminal');
      assert.match(await pane.locator('[data-testid="parameter-read-at"]').innerText(), /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);

      // a value out of range is refused in place, nothing is sent
      await offset.fill('900');
      await form.getByText(tr('zh-CN', 'parameter.err.range').replace('{{min}}', '-500').replace('{{max}}', '500').replace('{{unit}}', '')).waitFor();
      assert.equal(await pane.locator('[data-testid="parameter-send"]').isDisabled(), false);

      // change the offset: the confirmation lists old → new
      await offset.fill('-12');
      await pane.locator('[data-testid="parameter-send"]').click();
      const confirm = page.locator('[data-testid="parameter-confirm"]');
      await confirm.getByText('1 号仓 零点偏移: 0 → -12 毫米').waitFor();
      await page.locator('.ant-modal-confirm').getByRole('button', { name: spaced(zh('parameter.send')) }).click();
      await status.filter({ hasText: '0 → -12' }).and(page.locator('[data-state="acknowledged"]')).waitFor({ timeout: 30_000 });

      // read again: the terminal holds the new value
      await pane.getByTestId('parameter-read').click();
      await status.filter({ hasNotText: '0 → -12' }).and(page.locator('[data-state="acknowledged"]')).waitFor({ timeout: 30_000 });
      await page.waitForFunction((id) => document.querySelector(id)?.value === '-12', `#p${OFFSET_1}`);

      // the history lists the change, by whom, acknowledged
      await pane.locator('.ant-tabs-tab').filter({ hasText: zh('parameter.tabHistory') }).click();
      const row = pane.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: '1 号仓 零点偏移: 0 → -12 毫米' });
      await row.waitFor();
      assert.equal(await row.count(), 1);
      await row.getByText('admin', { exact: true }).waitFor();
      await row.getByText('终端已应答').waitFor();
      assert.ok((await row.innerText()).includes(plate));
    });
  });
});
