import { StatPage } from '../tripStats/StatPage';

/** transportProductStat (D50, D55): the finished trips' figures per product. */
export default function Page() {
  return <StatPage kind="product" sales={false} />;
}
