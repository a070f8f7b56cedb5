import { WaybillList } from '../waybill/WaybillList';

/** 销售公司运单 (03-14): waybills sold by the caller's sales companies, with the carrier — read, export, print (D43). */
export default function WaybillSalesPage() {
  return <WaybillList view="sales" />;
}
