import { StatPage } from '../tripStats/StatPage';

/** compStat (D50, D55): the finished trips' figures per company. */
export default function Page() {
  return <StatPage kind="company" sales={false} />;
}
