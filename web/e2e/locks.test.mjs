// Electronic locks and the car blacklist (basedata/blueLock, blueLockBindRecord, carBlacklistRecord): a lock
// is added, bound and unbound in the console and its binding record lists both; the lock list's export
// is a real xlsx holding it; a car blacklisted in the console is refused a waybill with the plate, the
// reason and "until lifted", and gets one again once lifted.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { inflateRawSync } from 'node:zlib';
import { api, apiLogin, setup, toast, tr, uiLogin, waitForPage } from './lib.mjs';

const zh = (key, vars = {}) => Object.entries(vars).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), tr('zh-CN', key));

/** The text of one file of a zip (an xlsx), read through the central directory. */
function zipEntry(buf, name) {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(eocd >= 0, 'not a zip file');
  let p = buf.readUInt32LE(eocd + 16);
  for (let n = buf.readUInt16LE(eocd + 10); n > 0; n--) {
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const skip = nameLen + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    if (buf.toString('utf8', p + 46, p + 46 + nameLen) === name) {
      const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
      const data = buf.subarray(start, start + size);
      return (method === 8 ? inflateRawSync(data) : data).toString('utf8');
    }
    p += 46 + skip;
  }
  return '';
}

/** Picks option `text` of the vehicle picker in `scope` (types it, waits for the search). */
async function pickVehicle(page, scope, plate) {
  await scope.locator('.ant-select').first().click();
  await page.keyboard.type(plate);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: plate }).first().click();
}

describe('locks and the car blacklist', () => {
  const env = setup();

  test('a lock is added, bound and unbound; the binding record lists both; the export holds it', { timeout: 60_000 }, async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const cars = (await api(env.base, 'POST', '/monitor-app/realTimeMoitoring/findCars', { token: admin.access_token, body: { carNumber: '', pageNum: 1, pageSize: 3 } })).body.data.list;
    const plate = cars[0].plate;
    const serial = 'E2E-LOCK-0001';
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/basedata/blueLock');
      const pane = await waitForPage(page, '/basedata/blueLock');
      await pane.getByRole('button', { name: zh('locks.addTitle') }).click();
      const form = page.getByRole('dialog');
      await form.locator('#lockForm_serial').fill(serial.toLowerCase());
      await form.getByRole('button', { name: /保\s*存/ }).click();
      await toast(page, zh('common.addSuccess')).waitFor();
      await pane.locator('.ant-form-item').filter({ hasText: zh('locks.serial') }).locator('input').first().fill(serial);
      await pane.getByRole('button', { name: /查\s*询/ }).click();
      const row = pane.locator('tr.ant-table-row').filter({ hasText: serial });
      await row.filter({ hasText: zh('locks.stateName.1') }).waitFor();

      // bind: the car's compartment 1 small manhole cover (the demo's locks hold the covers and valves)
      await row.getByRole('button', { name: zh('locks.bind') }).click();
      const bind = page.getByRole('dialog');
      await pickVehicle(page, bind.locator('.ant-form-item').filter({ hasText: zh('locks.car') }), plate);
      await bind.locator('.ant-form-item').filter({ hasText: zh('locks.device') }).locator('.ant-select').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: zh('locks.deviceName.0') }).click();
      await bind.getByRole('button', { name: /确\s*定/ }).click();
      await toast(page, zh('common.operationSuccess')).waitFor();
      await row.filter({ hasText: zh('locks.place', { plate, compartment: 1, device: zh('locks.deviceName.0') }) }).waitFor();

      // unbind with a reason
      await row.getByRole('button', { name: /解\s*绑/ }).click();
      const unbind = page.getByRole('dialog');
      await unbind.locator('textarea').fill('E2E 返厂检测');
      await unbind.getByRole('button', { name: /确\s*定/ }).click();
      await row.filter({ hasText: zh('locks.stateName.1') }).waitFor();

      // the export: a real xlsx whose rows hold the lock
      const [download] = await Promise.all([page.waitForEvent('download'), pane.getByRole('button', { name: /导\s*出/ }).click()]);
      assert.match(download.suggestedFilename(), new RegExp(`^${tr('zh-CN', 'menu.blueLock')}-\\d{8}\\.xlsx$`));
      // a streamed sheet writes its strings inline; a whole one in the shared strings
      const xlsx = readFileSync(await download.path());
      const strings = zipEntry(xlsx, 'xl/sharedStrings.xml') + zipEntry(xlsx, 'xl/worksheets/sheet1.xml');
      assert.ok(strings.includes(serial) && strings.includes('锁编号'), 'the export holds the lock under its header');

      // the binding record, from the lock's serial: bound, then unbound with the reason, by admin
      await row.getByRole('link', { name: serial }).click();
      const records = await waitForPage(page, '/basedata/blueLockBindRecord');
      const rows = records.locator('tr.ant-table-row').filter({ hasText: serial });
      await rows.filter({ hasText: 'E2E 返厂检测' }).filter({ hasText: zh('locks.actionName.2') }).waitFor();
      await rows.filter({ hasText: zh('locks.actionName.1') }).filter({ hasText: plate }).waitFor();
      assert.equal(await rows.count(), 2);
    });
  });

  test('a car blacklisted in the console is refused a waybill with the plate, reason and period, until lifted', { timeout: 60_000 }, async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const call = async (method, url, body, lang) => (await api(env.base, method, url, { token: admin.access_token, body, lang })).body;
    const o = (await call('GET', '/base-info-app/waybill/options')).data;
    const car = { id: o.cars[1].id, plate: o.cars[1].name };
    const waybill = {
      carId: car.id, depotId: o.depots[0].id, stationIds: [o.stations[0].id], driverName: '张师傅',
      compartments: [{ no: 1, productId: o.products[0].id, plannedL: 8000, destSeq: 1 }],
      plannedLoadAt: Date.now() + 3_600_000, plannedArriveAt: Date.now() + 4 * 3_600_000,
    };
    const reason = 'E2E 铅封破损未报备';
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/basedata/carBlacklistRecord');
      const pane = await waitForPage(page, '/basedata/carBlacklistRecord');
      await pane.getByRole('button', { name: zh('locks.blackAdd') }).click();
      const dialog = page.getByRole('dialog');
      await pickVehicle(page, dialog.locator('.ant-form-item').filter({ hasText: zh('locks.car') }), car.plate);
      await dialog.locator('textarea').fill(reason);
      await dialog.getByRole('button', { name: /确\s*定/ }).click();
      await toast(page, zh('common.operationSuccess')).waitFor();
      const row = pane.locator('tr.ant-table-row').filter({ hasText: reason });
      await row.filter({ hasText: zh('locks.blackStateName.active') }).filter({ hasText: zh('locks.untilLifted') }).waitFor();

      // a waybill for the car: refused, in the caller's language
      const zhRefusal = await call('POST', '/base-info-app/waybill/add', waybill, 'zh-CN');
      assert.equal(zhRefusal.code, 0);
      assert.equal(zhRefusal.message, `车辆 ${car.plate} 在黑名单中（原因：${reason}，直至解除），不能开具运单`);
      const enRefusal = await call('POST', '/base-info-app/waybill/add', waybill, 'en-US');
      assert.equal(enRefusal.message, `Vehicle ${car.plate} is blacklisted (reason: ${reason}, until lifted) and cannot be given a waybill`);

      // lifted in the console: the car gets its waybill
      await row.getByRole('button', { name: zh('locks.lift') }).click();
      const lift = page.getByRole('dialog');
      await lift.locator('textarea').fill('E2E 已整改');
      await lift.getByRole('button', { name: /确\s*定/ }).click();
      await row.filter({ hasText: zh('locks.blackStateName.lifted') }).waitFor();
    });
    const added = await call('POST', '/base-info-app/waybill/add', waybill);
    assert.equal(added.code, 1, JSON.stringify(added));
  });
});
