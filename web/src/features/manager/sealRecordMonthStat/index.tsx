import { StatPage } from '../lockStats/StatPage';

/** sealRecordMonthStat (D54): see ../lockStats/StatPage. */
export default function Page() {
  return <StatPage page="sealRecordMonthStat" />;
}
