import { StatPage } from '../lockStats/StatPage';

/** blueLockStat (D54): see ../lockStats/StatPage. */
export default function Page() {
  return <StatPage page="blueLockStat" />;
}
