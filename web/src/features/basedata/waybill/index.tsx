import { WaybillList } from './WaybillList';

/** 运单管理 (03-13): the carrier's working list — every state, CRUD, dispatch, cancel, import, export, print (D43). */
export default function WaybillPage() {
  return <WaybillList view="carrier" />;
}
