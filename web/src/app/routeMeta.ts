import { useMatches } from 'react-router';

/** Route `handle` of every page route. */
export interface PageHandle {
  name: string;
  allScreen?: boolean;
  beforeCloseConfirm?: boolean;
}

function isPageHandle(h: unknown): h is PageHandle {
  return !!h && typeof h === 'object' && typeof (h as PageHandle).name === 'string';
}

/** The handle of the deepest matched page route (undefined outside pages). */
export function usePageHandle(): PageHandle | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const h = matches[i].handle;
    if (isPageHandle(h)) return h;
  }
  return undefined;
}
