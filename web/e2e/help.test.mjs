// Help requests end to end: a simulated terminal (its own `tankwatch sim` process, over real JT/T 808
// TCP) asks to unlock; the request appears on 求助记录; dealing it sends 0xE4 down to that terminal,
// which answers; the console says 提示 操作成功 and the record becomes 已处理.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { api, apiLogin, BINARY, dismissLiveDialogs, newContext, setup, tile, tr, uiLogin, waitForPage } from './lib.mjs';

const zh = (key) => tr('zh-CN', key);
/** antd puts a space between two CJK characters of a button (开 锁), so match either. */
const spaced = (text) => new RegExp(`^${[...text].join('\\s*')}$`);

/** Calls fn until it returns a truthy value; fails after `ms`. */
async function poll(what, ms, fn, every = 500) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, every));
  }
}

function findGroup(nodes, name) {
  for (const n of nodes ?? []) {
    if (n.name === name) return n;
    const hit = findGroup(n.children, name);
    if (hit) return hit;
  }
  return null;
}

// The demo fleet of the e2e server is vehicles 0–39; these tests drive vehicles 40 and 41 (phones as
// fleet.DemoTerminalPhone), registered here, each with its own `tankwatch sim` asking for help at once.
const phoneOf = (index) => `0138${String(52600100 + index).padStart(8, '0')}`;
const PLATE = '冀A·E2E40';

describe('help requests', () => {
  const env = setup();
  const sims = [];
  let simOut = '';
  after(() => sims.forEach((p) => p.kill('SIGTERM')));

  /** Registers car + terminal `index` in 华北分公司 and starts a simulator for it that asks for help at once. */
  async function driveTerminal(token, index, plate, protocol) {
    const call = async (url, body) => {
      const r = await api(env.base, 'POST', url, { token, body });
      assert.equal(r.body.code, 1, `${url}: ${JSON.stringify(r.body)}`);
      return r.body.data;
    };
    const jt = /JT\/T 808 gateway listening.*addr=(\S+)/.exec(env.server.output())?.[1];
    assert.ok(jt, 'the server logs its JT/T 808 address');
    const north = findGroup(await call('/authority-app/groupInfo/findTrees', {}), '华北分公司');
    assert.ok(north, '华北分公司 in the group tree');
    const car = await call('/base-info-app/carInfo/insert', { plate, compartments: 3, groupId: north.id });
    // the gateway registers a terminal only with the registry's terminal ID and plate (PROTOCOL.md §6)
    const deviceId = `E2E${String(index).padStart(4, '0')}`;
    const term = await call('/base-info-app/terminal/insert', { phone: phoneOf(index), deviceId, protocol, groupId: north.id });
    await call('/base-info-app/terminal/bind', { id: term.id, carId: car.id, simId: null });
    const proc = spawn(BINARY, ['sim', '--gateway', jt, '--vehicles', '1', '--first', String(index), '--misbehave', '0', '--help-every', '1000h',
      '--plate', plate, '--terminal-id', deviceId], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.stdout.on('data', (d) => { simOut += d; });
    proc.stderr.on('data', (d) => { simOut += d; });
    sims.push(proc);
  }

  test('a terminal asks to unlock; the operator unlocks it from 求助记录 and the record is done', async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const call = async (url, body) => {
      const r = await api(env.base, 'POST', url, { token: admin.access_token, body });
      assert.equal(r.body.code, 1, `${url}: ${JSON.stringify(r.body)}`);
      return r.body.data;
    };
    await driveTerminal(admin.access_token, 40, PLATE, 2019);

    const record = await poll('the help request to be recorded', 60_000, async () => {
      const page = await call('/base-info-app/helpRecord/page', { pageNum: 1, pageSize: 10, carNumber: PLATE });
      return page.list[0];
    }).catch((err) => {
      throw new Error(`${err.message}\n--- sim ---\n${simOut.slice(-3000)}\n--- server ---\n${env.server.output().slice(-3000)}`);
    });
    assert.equal(record.requestType, 1);
    assert.equal(record.status, 'pending');

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await tile(page, 'police').click();
      await page.locator('.tw-sider-menu .ant-menu-item').filter({ hasText: zh('menu.helpRequestRecord') }).click();
      await waitForPage(page, '/police/helpRequestRecord');
      const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: PLATE });
      await row.locator('[data-testid="help-status"]').filter({ hasText: zh('helpRecord.statuses.pending') }).waitFor();
      await row.getByRole('button', { name: spaced(zh('helpRecord.deal')) }).click();

      const view = page.locator('[data-testid="help-view"]');
      await view.waitFor();
      await view.locator('.ant-descriptions').getByText(PLATE).waitFor();
      await view.locator('[data-testid="help-map"]').waitFor(); // the truck reported a position: the map, not 未定位
      assert.equal(await view.getByRole('button', { name: spaced(zh('help.lock')) }).count(), 0, 'an unlock request offers unlock, not lock');
      const dealt = page.waitForResponse((r) => r.url().endsWith('/base-info-app/helpRecord/deal'));
      await view.getByRole('button', { name: spaced(zh('help.unlock')) }).click();
      const resp = await dealt;
      assert.deepEqual(JSON.parse(resp.request().postData()), { id: record.id, dealType: 1 });
      const body = await resp.json();
      assert.equal(body.code, 1, JSON.stringify(body));

      const done = page.locator('.ant-modal-confirm').filter({ hasText: '操作成功' });
      await done.locator('.ant-modal-confirm-title').filter({ hasText: '提示' }).waitFor();
      await view.waitFor({ state: 'hidden' }); // the help view closed
      await done.getByRole('button').click();
      await row.locator('[data-testid="help-status"]').filter({ hasText: zh('helpRecord.statuses.done') }).waitFor();
    });

    const final = await call('/base-info-app/helpRecord/page', { pageNum: 1, pageSize: 10, carNumber: PLATE });
    assert.equal(final.list[0].status, 'done');
    assert.ok(final.list[0].commandId > 0);
  });

  test('the request pops up live as 求助消息 for the dispatcher (not for the customer of another subsidiary), who unlocks it there', async (t) => {
    const plate = '冀A·E2E41';
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    // the customer (华东分公司) is signed in too: a 华北 car's request must not reach it
    const custContext = await newContext(env);
    t.after(() => custContext.close().catch(() => undefined));
    const cust = await custContext.newPage();
    await uiLogin(cust, 'customer', 'customer123');
    await env.page(t, async (page) => {
      // live dialogs open one at a time: a demo alarm's 系统信息 must not hold the request back
      await dismissLiveDialogs(page, { only: 'system' });
      await uiLogin(page, 'dispatcher', 'dispatch123');
      // the consoles' live connections announce their users online
      for (let online = new Set(); !(online.has('dispatcher') && online.has('customer')); await page.waitForTimeout(200)) {
        const users = await api(env.base, 'GET', '/authority-app/message/users', { token: admin.access_token });
        online = new Set(users.body.data.filter((u) => u.online).map((u) => u.name));
      }
      await driveTerminal(admin.access_token, 41, plate, 2013);
      const dialog = page.locator('.ant-modal').filter({ hasText: '求助消息' });
      const view = dialog.locator('[data-testid="help-view"]');
      await view.locator('.ant-descriptions').getByText(plate).waitFor({ timeout: 60_000 });
      // the layout width (getBoundingClientRect would include the opening zoom animation's scale)
      const width = await dialog.locator('.ant-modal-content').evaluate((el) => parseFloat(getComputedStyle(el).width));
      assert.ok(Math.abs(width - 700) < 2, `dialog width ${width}, spec §9: 700`);
      const dealt = page.waitForResponse((r) => r.url().endsWith('/base-info-app/helpRecord/deal'));
      await view.getByRole('button', { name: spaced(zh('help.unlock')) }).click();
      assert.equal((await (await dealt).json()).code, 1);
      await page.locator('.ant-modal-confirm').filter({ hasText: '操作成功' }).locator('.ant-modal-confirm-title').filter({ hasText: '提示' }).waitFor();
      await view.waitFor({ state: 'hidden' });
    }, { liveDialogs: 'keep' });
    assert.equal(await cust.locator('.ant-modal').filter({ hasText: '求助消息' }).count(), 0, 'the customer got no 求助消息');
    const { body } = await api(env.base, 'POST', '/base-info-app/helpRecord/page', { token: admin.access_token, body: { pageNum: 1, pageSize: 10, carNumber: plate } });
    assert.equal(body.data.list[0].status, 'done');
  });
});
