// The waybill chain end to end (issue 15 "Proof"): the demo planner dispatches a simulated truck's trip,
// the truck loads (the depot's ticket becomes the load record), seals, drives, unloads, and the waybill
// moves by itself from what the truck reports — nobody clicks anything.
//   (a) a well-behaved truck (--demo-misbehave 0): its waybill reaches CLOSED;
//   (b) every truck opens a discharge valve on the way on its first loaded trip (--demo-incident
//       valve_away): the trip is flagged (DIFF_FLAGGED, or flagged on the way) with an opening difference.
// Two demo trucks at 1000× (the second is back at its depot within seconds and waits there for its
// waybill), station gauges polled every second. Each test runs its own server; both start at once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, apiLogin, startServer } from './lib.mjs';

const COMMON = ['--demo-history-cars', '0', '--demo-vehicles', '2', '--demo-speedup', '1000', '--gauge-interval', '1s'];
const servers = {};

before(async () => {
  const [clean, valve] = await Promise.all([
    startServer([...COMMON, '--demo-misbehave', '0']),
    startServer([...COMMON, '--demo-misbehave', '0', '--demo-incident', 'valve_away']),
  ]);
  servers.clean = clean;
  servers.valve = valve;
});

after(async () => {
  await Promise.all(Object.values(servers).map((s) => s.stop()));
});

/** The demo's waybills (carrier view), newest first. */
async function waybills(base, token) {
  const { status, body } = await api(base, 'POST', '/base-info-app/waybill/page', { token, body: { pageNum: 1, pageSize: 50 } });
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.code, 1, JSON.stringify(body));
  return body.data.list;
}

/** Polls until pick(list) returns something, or fails after ms with what was seen. */
async function waitFor(server, token, pick, ms, what) {
  const deadline = Date.now() + ms;
  let list = [];
  for (;;) {
    list = await waybills(server.base, token);
    const hit = pick(list);
    if (hit) return hit;
    if (Date.now() > deadline) {
      const seen = list.map((w) => `${w.no} ${w.state}${w.flagged ? ' (flagged)' : ''}`).join(', ') || 'no waybill';
      const log = server.output().split('\n').filter((l) => !l.includes('msg=http') && /waybill|dispatch|load record|ERROR/i.test(l)).slice(-15).join('\n');
      assert.fail(`${what} within ${ms / 1000} s; waybills: ${seen}\nserver log:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

test('a simulated truck loads, drives, unloads and its waybill closes by itself', async () => {
  const s = servers.clean;
  const { access_token: token } = await apiLogin(s.base, 'admin', 'admin123');
  // a flagged waybill can only end DIFF_FLAGGED: stop there and say why
  const w = await waitFor(s, token, (l) => l.find((x) => x.state === 'CLOSED' || x.state === 'DIFF_FLAGGED' || x.flagged), 35_000,
    'no waybill finished');
  assert.equal(w.state, 'CLOSED', `waybill ${w.no} ended ${w.state}${w.flagged ? ' (flagged)' : ''}: ${await diffsOf(s, token, w)}`);
  assert.ok(!w.flagged, `waybill ${w.no} flagged`);
  // made by the chain: the planner's waybill, the depot's ticket as its shipped V20, the station gauge's
  // delivery as its received V20
  assert.equal(w.remark, '演示调度');
  assert.ok(w.shippedV20 > 20000, `shipped V20 ${w.shippedV20}`);
  assert.ok(Math.abs(w.receivedV20 - w.shippedV20) <= w.shippedV20 * w.allowedPct / 100,
    `received ${w.receivedV20} of ${w.shippedV20} (allowance ${w.allowedPct} %)`);
});

/** The differences listed for waybill w (for failure messages and the valve test). */
async function diffsOf(s, token, w) {
  const { body } = await api(s.base, 'POST', '/monitor-app/realTimeMoitoring/getDiffDataStatusPage', { token, body: { pageNum: 1, pageSize: 100 } });
  const list = (body?.data?.list ?? []).filter((x) => x.waybillId === w.id);
  return JSON.stringify(list.slice(0, 3).map((x) => ({ kind: x.kindName, evidence: x.evidence })));
}

test('a valve opened on the way flags the trip', async () => {
  const s = servers.valve;
  const { access_token: token } = await apiLogin(s.base, 'admin', 'admin123');
  // the difference names the opened discharge valve (device 2: tank.DischargeValve) as its evidence
  const deadline = Date.now() + 35_000;
  let list = [];
  let opening;
  while (!opening) {
    const { status, body } = await api(s.base, 'POST', '/monitor-app/realTimeMoitoring/getDiffDataStatusPage', { token, body: { pageNum: 1, pageSize: 100 } });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.code, 1, JSON.stringify(body));
    list = body.data.list;
    opening = list.find((x) => x.kind === 2 && /"device":2\b/.test(x.evidence));
    if (!opening) {
      assert.ok(Date.now() < deadline, `no valve opening listed within 35 s: ${JSON.stringify(list.slice(0, 3))}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const w = (await waybills(s.base, token)).find((x) => x.id === opening.waybillId);
  assert.ok(w, `waybill ${opening.waybillNo} not listed`);
  assert.ok(w.state === 'DIFF_FLAGGED' || w.flagged, `waybill ${w.no} is ${w.state}, not flagged`);
  assert.equal(w.remark, '演示调度');
});
