import type { StepView, Trip, TripDetail } from '../../../api/transportProcess';

/** Test data of the process pages. */
const T0 = 1_780_000_000_000;

export const trip = (over: Partial<Trip> = {}): Trip => ({
  id: 7, no: 'G0001YD202611260001', state: 'IN_TRANSIT', stateAt: T0 + 400_000, flagged: true, leftUnsealed: false,
  groupId: 2, groupName: '华东分公司', salesGroupId: 0, salesGroupName: '', carId: 5, plate: '沪A·6N337', customerId: 0, customerName: '',
  depotId: 1, depotName: '吴泾油库', driverName: '张师傅', driverPhone: '13800000000', escortName: '', escortPhone: '',
  plannedLoadAt: T0, plannedArriveAt: T0 + 7_200_000, dispatchedAt: T0 + 100, loadStartAt: T0 + 200, loadedAt: T0 + 300, sealedAt: T0 + 350,
  departAt: T0 + 400_000, arriveAt: 0, unsealedAt: 0, unloadStartAt: 0, receivedAt: 0, closedAt: 0,
  shippedV20: 9877, shippedMassT: 7.298, receivedV20: 0, receivedSource: 0, lossL: 0, lossRatePct: 0, allowedPct: 0, over: false,
  loadedKm: 0, tonKm: 0, outToArrivalMin: -1, late: true, remark: '', createdAt: T0 - 1000,
  destinations: [{ seq: 1, stationId: 3, stationName: '浦东加油站', state: 0, arriveAt: 0, unsealedAt: 0, unloadStartAt: 0, unloadEndAt: 0, receivedAt: 0, receivedV20: 0, receivedSource: 0 }],
  ...over,
});

const step = (over: Partial<StepView>): StepView => ({
  id: 1, from: 'PLANNED', to: 'DISPATCHED', mark: false, evidence: 1, cause: 3, userId: 2, userName: '调度员小王', t: T0 + 100, recordedAt: T0 + 150,
  destSeq: 0, compartment: 0, stationId: 0, stationName: '', lat: 0, lon: 0, address: '', volumeL: 0, reason: '', detail: '', ...over,
});

export const detail = (over: Partial<TripDetail> = {}): TripDetail => {
  const w = trip();
  return {
    waybill: w,
    destinations: w.destinations,
    compartments: [{ no: 1, productId: 1, productName: '92#汽油', plannedL: 10000, destSeq: 1 }],
    load: { id: 3, ticketNo: 'T-001', loadedAt: T0 + 300, source: 3, remark: '',
      items: [{ compartment: 1, productName: '92#汽油', vtL: 10000, tempC: 30, density20: 740, vcf20: 0.9877, v20L: 9877, massT: 7.298, sealNo: 'S123' }] },
    steps: [
      step({}),
      step({ id: 2, from: 'DISPATCHED', to: 'LOADING', evidence: 2, cause: 1, userId: 0, userName: '', t: T0 + 200, stationId: 1, stationName: '吴泾油库' }),
      step({ id: 3, from: 'LOADING', to: 'LOADED', evidence: 3, cause: 4, userName: '', userId: 0, t: T0 + 300, volumeL: 9877 }),
      step({ id: 4, from: 'LOADED', to: 'SEALED', evidence: 4, cause: 1, userId: 0, userName: '', t: T0 + 350 }),
      step({ id: 5, from: 'SEALED', to: 'IN_TRANSIT', evidence: 5, cause: 1, userId: 0, userName: '', t: T0 + 400_000, stationId: 1, stationName: '吴泾油库' }),
      step({ id: 6, from: 'IN_TRANSIT', to: 'IN_TRANSIT', mark: true, evidence: 12, cause: 1, userId: 0, userName: '', t: T0 + 900_000, recordedAt: T0 + 1_200_000,
        lat: 31.2, lon: 121.5, address: '上海市闵行区附近', compartment: 2 }),
    ],
    diffs: [{ id: 1, kind: 2, status: 0, t: T0 + 900_000, lossL: 0, lossRatePct: 0, allowedPct: 0, evidence: '', reviewReason: '' }],
    ...over,
  };
};
