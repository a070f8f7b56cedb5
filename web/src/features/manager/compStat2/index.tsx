import { StatPage } from '../tripStats/StatPage';

/** compStat2 (D50, D55): the finished trips' figures per company, the sales company's view. */
export default function Page() {
  return <StatPage kind="company" sales={true} />;
}
