import { StatPage } from '../tripStats/StatPage';

/** transportProductStat2 (D50, D55): the finished trips' figures per product, the sales company's view. */
export default function Page() {
  return <StatPage kind="product" sales={true} />;
}
