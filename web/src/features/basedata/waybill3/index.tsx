import { WaybillList } from '../waybill/WaybillList';

/** 运单归档 (03-15): finished waybills (closed, cancelled) with their loss figures — read, export (D43). */
export default function WaybillArchivePage() {
  return <WaybillList view="archive" />;
}
