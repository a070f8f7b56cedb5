import { StatPage } from '../tripStats/StatPage';

/** carStat (D50, D55): the finished trips' figures per car. */
export default function Page() {
  return <StatPage kind="car" sales={false} />;
}
