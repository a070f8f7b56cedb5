// The demo fleet (40 simulated terminals) reports over real JT/T 808 TCP; the API shows what arrived:
// live counts, scope, car details, and the raw frames decoded again.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, apiLogin, startServer } from './lib.mjs';

const MONITOR = '/monitor-app/realTimeMoitoring';
const FLEET = 40;

/** Calls fn until it returns a truthy value (assertion failures inside fn fail at once); fails after `ms`. */
async function poll(what, ms, fn, every = 500) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** 'YYYY-MM-DD HH:mm:ss' in Asia/Shanghai, the API's time format. */
function shanghai(date) {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false,
  }).format(date);
}

function findGroup(nodes, name) {
  for (const n of nodes ?? []) {
    if (n.name === name) return n;
    const hit = findGroup(n.children, name);
    if (hit) return hit;
  }
  return null;
}

describe('JT/T 808 ingest of the demo fleet', () => {
  let server;
  let base;
  let admin;
  let customer;
  /** GET/POST as a user; asserts HTTP 200 + code 1 unless `raw` and returns data (or the whole answer when raw). */
  const call = async (who, method, url, { body, raw = false } = {}) => {
    const r = await api(base, method, url, { token: who.access_token, body });
    if (raw) return r;
    assert.equal(r.status, 200, `${method} ${url}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
    assert.equal(r.body.code, 1, `${method} ${url}: ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  // the counts by code, without serverTime (the instant they were taken, which differs between samples)
  const carCount = async (who, groupId) => {
    const { serverTime, ...counts } = await call(who, 'GET', `${MONITOR}/carCount${groupId ? `?groupId=${groupId}` : ''}`);
    assert.equal(typeof serverTime, 'number');
    return counts;
  };
  const groupId = async (name) => {
    const g = findGroup(await call(admin, 'POST', '/authority-app/groupInfo/findTrees', { body: {} }), name);
    assert.ok(g, `group ${name} in the tree`);
    return g.id;
  };

  before(async () => {
    server = await startServer();
    base = server.base;
    admin = await apiLogin(base, 'admin', 'admin123');
    customer = await apiLogin(base, 'customer', 'customer123');
  });
  after(async () => {
    await server?.stop();
  });

  test('all 40 cars are counted and at least 30 come online within 90 s', async () => {
    let last;
    await poll('30 cars online', 90_000, async () => {
      last = await carCount(admin);
      assert.equal(last['8'], FLEET, `total: ${JSON.stringify(last)}`);
      assert.equal(last['4'] + last['5'] + last['7'], last['8'], `in transit + resting + offline = total: ${JSON.stringify(last)}`);
      return last['8'] - last['7'] >= 30;
    }).catch((err) => {
      throw new Error(`${err.message}; last counts ${JSON.stringify(last)}\n--- server output (tail) ---\n${server.output().slice(-4000)}`);
    });
  });

  test('the customer (华东分公司) gets the counts admin gets for 华东分公司', async () => {
    const east = await groupId('华东分公司');
    // the counts move while the fleet drives: compare a customer sample taken between two equal admin samples
    let seen;
    await poll('equal counts', 20_000, async () => {
      const before = await carCount(admin, east);
      const mine = await carCount(customer);
      const afterwards = await carCount(admin, east);
      seen = { before, mine, afterwards };
      return JSON.stringify(before) === JSON.stringify(afterwards) && JSON.stringify(mine) === JSON.stringify(before);
    }, 200).catch((err) => {
      throw new Error(`${err.message}: ${JSON.stringify(seen)}`);
    });
    assert.ok(seen.mine['8'] > 0 && seen.mine['8'] < FLEET, `华东分公司 holds part of the fleet: ${JSON.stringify(seen.mine)}`);
    const all = await carCount(admin);
    assert.equal(all['8'], FLEET);

    const north = await groupId('华北分公司');
    const refused = await call(customer, 'GET', `${MONITOR}/carCount?groupId=${north}`, { raw: true });
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
  });

  test('the customer cannot read a 华北 car, but can read its own', async () => {
    const north = await groupId('华北分公司');
    const northCars = await call(admin, 'POST', `${MONITOR}/findCars`, { body: { groupId: north, pageNum: 1, pageSize: 1 } });
    assert.ok(northCars.total > 0, '华北分公司 has demo cars');
    const refused = await call(customer, 'GET', `${MONITOR}/carDetails?carId=${northCars.list[0].carId}`, { raw: true });
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 0);

    const mine = await call(customer, 'POST', `${MONITOR}/findCars`, { body: { pageNum: 1, pageSize: 1 } });
    assert.ok(mine.total > 0);
    assert.equal(mine.list[0].groupName.includes('华北'), false, JSON.stringify(mine.list[0]));
    const detail = await call(customer, 'GET', `${MONITOR}/carDetails?carId=${mine.list[0].carId}`);
    assert.equal(detail.carId, mine.list[0].carId);
  });

  test('an online car has a lock state and a position; its raw history lists decoded 0x0200 locations', async () => {
    const car = await poll('an online car with tank data', 60_000, async () => {
      const cars = await call(admin, 'POST', `${MONITOR}/findCars`, { body: { pageNum: 1, pageSize: 50 } });
      return cars.list.find((c) => c.online && c.lockState !== '' && c.lng !== '');
    });
    const d = await call(admin, 'GET', `${MONITOR}/carDetails?carId=${car.carId}`);
    assert.equal(d.online, true);
    assert.match(d.lockState, /^[01]{128}$/, 'the 128-character lock state');
    assert.equal(typeof d.lng, 'number');
    assert.equal(typeof d.lat, 'number');
    // the demo drives in mainland China
    assert.ok(d.lng > 73 && d.lng < 136 && d.lat > 18 && d.lat < 54, `position ${d.lng}, ${d.lat}`);
    assert.match(d.time, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.equal(d.compartmentStates.length, d.compartments);

    const frames = await poll('raw 0x0200 frames of the car', 30_000, async () => {
      const end = new Date();
      const start = new Date(end.getTime() - 3600_000);
      const q = new URLSearchParams({ carId: String(car.carId), startTime: shanghai(start), endTime: shanghai(end), pageNum: '1', pageSize: '50' });
      const page = await call(admin, 'GET', `/hbase/rawHistoryRecord?${q}`);
      const locations = page.list.filter((f) => f.msgId === '0x0200');
      return locations.length > 0 && { page, locations };
    });
    for (const f of frames.page.list) {
      assert.equal(f.carId, car.carId);
      assert.equal(f.decoded.header.msgId, f.msgId, 'decoded again from the stored bytes');
      assert.match(f.hex, /^7E[0-9A-F]+7E$/);
    }
    for (const f of frames.locations) {
      assert.equal(f.direction, 'up');
      assert.equal(f.decoded.error, undefined, JSON.stringify(f.decoded));
      const loc = f.decoded.body;
      assert.equal(typeof loc.lat, 'number', JSON.stringify(loc));
      assert.equal(typeof loc.lng, 'number', JSON.stringify(loc));
      assert.ok(loc.lng > 73 && loc.lng < 136 && loc.lat > 18 && loc.lat < 54, `location ${loc.lng}, ${loc.lat}`);
      assert.equal(typeof loc.speed, 'number');
      assert.match(loc.alarm, /^0x[0-9A-F]{8}$/);
    }
  });
});
