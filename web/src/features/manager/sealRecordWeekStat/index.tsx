import { StatPage } from '../lockStats/StatPage';

/** sealRecordWeekStat (D54): see ../lockStats/StatPage. */
export default function Page() {
  return <StatPage page="sealRecordWeekStat" />;
}
