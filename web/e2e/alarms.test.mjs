// Alarms from the demo fleet: the simulator opens a discharge valve away from any station (its
// "valve_away" incident); the engine raises 异常卸油, an alarm clerk finds it in 报警信息, processes it and
// sees it on the map: the alarm's own map in its details, and the car's recent alarms on the monitoring map.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, uiLogin } from './lib.mjs';

const M = '/alarm-app/alarmMessage';

function shanghai(date) {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false,
  }).format(date);
}

describe('alarms', () => {
  // simulated time runs 600 times faster: a night and a working day take about three minutes
  const env = setup({ args: ['--demo-vehicles', '200', '--demo-speedup', '600', '--demo-history-cars', '0'] });

  test('an abnormal-unloading alarm of the demo fleet shows on the map and in 报警信息, and is processed', { timeout: 420_000 }, async (t) => {
    // At 600× the fleet's live pushes (level I alarms, help requests) would open dialogs over the page
    // every moment. The operator here is an alarm clerk holding only 报警信息 (no help requests), and
    // live push is switched off for every alarm type (pushes have their own tests).
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const types = await api(env.base, 'POST', '/alarm-app/alarmType/list', { token: admin.access_token, body: {} });
    for (const ty of types.body.data.filter((x) => x.push)) {
      const r = await api(env.base, 'POST', '/alarm-app/alarmType/update', { token: admin.access_token, body: { ...ty, push: false } });
      assert.equal(r.body.code, 1, JSON.stringify(r.body));
    }
    const call = async (url, body) => {
      const r = await api(env.base, 'POST', url, { token: admin.access_token, body });
      assert.equal(r.body.code, 1, `${url}: ${JSON.stringify(r.body)}`);
      return r.body.data;
    };
    const role = await call('/authority-app/roleInfo/insert', { name: '报警处理员', groupId: 0, resourceCodes: ['02-06', '04', '04-01'] });
    await call('/authority-app/userInfo/insert', { name: 'alarmclerk', nickName: '报警处理员小李', password: 'clerk123', groupId: admin.groupId, roleIds: [role.id] });

    // At 600× a car raises a fence or lock alarm every few simulated minutes, and the car detail lists
    // only its five latest. From here on the whole fleet watches abnormal unloading alone, so an alarm
    // among its car's five latest now stays there (what comes later is 异常卸油 too).
    await call('/alarm-app/controlMode/save', { groupId: 0, watched: ['abnormalUnload'], speedLimit: 80, parkingMinutes: 60, offlineMinutes: 30, levelDropLitres: 50 });
    await new Promise((res) => setTimeout(res, 1000)); // reports judged under the old settings are stored

    const me = await apiLogin(env.base, 'dispatcher', 'dispatch123');
    const deadline = Date.now() + 360_000;
    let alarm;
    for (;;) {
      const r = await api(env.base, 'POST', `${M}/findsome`, { token: me.access_token, body: { types: ['abnormalUnload'], pageNum: 1, pageSize: 20 } });
      assert.equal(r.body.code, 1, JSON.stringify(r.body));
      for (const a of r.body.data.list) {
        const latest = await call(`${M}/findListByCarId`, { carId: a.carId, limit: 5 });
        if (latest.some((x) => x.id === a.id)) {
          alarm = a;
          break;
        }
      }
      if (alarm) break;
      assert.ok(Date.now() < deadline, 'an abnormal-unloading alarm within six minutes');
      await new Promise((res) => setTimeout(res, 3000));
    }
    assert.equal(alarm.level, 1);
    assert.match(alarm.detail, /打开的仓|涉及的仓/); // an opening; the litres lost join it once the fall is judged (D36)
    // the simulator's clock runs ahead of the wall clock, and the car goes on raising alarms: the
    // range ends a second after this one, so it heads the newest-first list
    const end = shanghai(new Date(Date.parse(`${alarm.startTime.replace(' ', 'T')}+08:00`) + 1000));

    await env.page(t, async (page) => {
      await uiLogin(page, 'alarmclerk', 'clerk123');
      // on the monitoring map, the car's detail lists it among its recent alarms
      await page.goto('/#/manager/monitoring');
      await page.getByTestId('vehicle-search').fill(alarm.carNumber);
      await page.getByTestId(`tree-car-${alarm.carId}`).click();
      await page.getByTestId('detail-recent-alarms').filter({ hasText: '异常卸油' }).waitFor({ timeout: 30_000 });

      await page.goto('/#/police/policeMsg');
      const form = page.locator('form.tw-filter-form');
      await form.waitFor();
      const endInput = form.locator('.ant-picker input').last();
      // typed while the page is busy redrawing (200 trucks at 600×), the picker can drop the text it was
      // given (seen in CI: the end kept its default and the query missed the alarm): type until it holds
      for (let tries = 1; ; tries++) {
        await endInput.click();
        await endInput.fill(end);
        await endInput.press('Enter');
        await page.keyboard.press('Escape');
        if ((await endInput.inputValue()) === end) break;
        assert.ok(tries < 5, `the end time picker holds ${await endInput.inputValue()}, not ${end}`);
      }
      await form.locator('input').nth(1).fill(alarm.carNumber); // 车牌号
      await form.getByRole('button', { name: /查\s*询/ }).click();
      const row = page.locator('tr.ant-table-row').filter({ hasText: '异常卸油' }).filter({ hasText: alarm.carNumber }).first();
      await row.waitFor({ timeout: 30_000 });
      assert.match(await row.textContent(), /I级/);
      await row.getByRole('button', { name: /处\s*理/ }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('已处理').check();
      await dialog.locator('textarea').fill('已联系司机核实');
      await dialog.getByRole('button', { name: /确\s*定/ }).click();
      await row.filter({ hasText: '已处理' }).waitFor();

      // and the alarm's details show where it happened: its address (the server's reverse geocoding), not
      // its coordinates, and a 处理 button that opens the processing dialog for it
      const clerk = await apiLogin(env.base, 'alarmclerk', 'clerk123');
      const geo = await api(env.base, 'GET', `/hbase/getAddress?lng=${alarm.lng}&lat=${alarm.lat}`, { token: clerk.access_token });
      assert.ok(geo.body.data, JSON.stringify(geo.body));
      await row.getByRole('button', { name: /详\s*情/ }).click();
      const details = page.getByRole('dialog').filter({ has: page.getByTestId('alarm-map') });
      await details.getByTestId('alarm-map').locator('path.leaflet-interactive').waitFor();
      await details.getByTestId('alarm-address').filter({ hasText: geo.body.data }).waitFor();
      assert.doesNotMatch(await details.locator('.ant-descriptions').textContent(), new RegExp(`${alarm.lng.toFixed(6)}, ${alarm.lat.toFixed(6)}`));
      await details.getByTestId('alarm-detail-deal').click();
      await details.waitFor({ state: 'hidden' });
      const deal = page.getByRole('dialog').filter({ has: page.getByLabel('待进一步处理') });
      await deal.waitFor();
      await deal.getByRole('button', { name: /取\s*消/ }).click();
      await deal.waitFor({ state: 'hidden' });
    });
    const r = await api(env.base, 'POST', `${M}/findListByCarId`, { token: me.access_token, body: { carId: alarm.carId, limit: 200 } });
    const dealt = r.body.data.find((a) => a.id === alarm.id);
    assert.equal(dealt?.state, 1);
    assert.equal(dealt?.remark, '已联系司机核实');
    assert.equal(dealt?.handlerName, 'alarmclerk');
  });
});
