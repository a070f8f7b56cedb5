import { StatPage } from '../tripStats/StatPage';

/** carStat2 (D50, D55): the finished trips' figures per car, the sales company's view. */
export default function Page() {
  return <StatPage kind="car" sales={true} />;
}
