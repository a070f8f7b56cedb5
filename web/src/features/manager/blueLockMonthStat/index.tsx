import { StatPage } from '../lockStats/StatPage';

/** blueLockMonthStat (D54): see ../lockStats/StatPage. */
export default function Page() {
  return <StatPage page="blueLockMonthStat" />;
}
