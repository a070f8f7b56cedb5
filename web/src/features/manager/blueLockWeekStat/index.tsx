import { StatPage } from '../lockStats/StatPage';

/** blueLockWeekStat (D54): see ../lockStats/StatPage. */
export default function Page() {
  return <StatPage page="blueLockWeekStat" />;
}
