import { StatPage } from '../lockStats/StatPage';

/** sealRecordStat (D54): see ../lockStats/StatPage. */
export default function Page() {
  return <StatPage page="sealRecordStat" />;
}
