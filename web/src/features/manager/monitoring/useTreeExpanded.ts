import { useEffect, useState } from 'react';
import { isGroupKey } from './vehicleTree';

/**
 * The keys open after the tree's groups changed (a new search, groups added): every group shown opens, so
 * the matches are visible, and the cars (or any other non-group node) the user opened stay open. Before,
 * the list was replaced by the groups alone, so a car opened just after typing closed again when the
 * deferred search caught up.
 */
export function keepOpen(prev: readonly React.Key[], groupKeys: readonly string[]): React.Key[] {
  const seen = new Set<string>(groupKeys);
  const out: React.Key[] = [...groupKeys];
  for (const k of prev) {
    const s = String(k);
    if (isGroupKey(k) || seen.has(s)) continue;
    seen.add(s);
    out.push(k);
  }
  return out;
}

/**
 * The vehicle trees' open keys. The groups open again when the search (or filter) changes or the set of
 * groups shown does, compared by keys, not by the array's identity: a live refresh of the same groups
 * keeps a group the user closed.
 */
export function useTreeExpanded(groupKeys: readonly string[], search: string) {
  const [expanded, setExpanded] = useState<React.Key[]>([]);
  const keys = groupKeys.join(',');
  useEffect(() => {
    setExpanded((prev) => keepOpen(prev, keys === '' ? [] : keys.split(',')));
  }, [keys, search]);
  return [expanded, setExpanded] as const;
}
