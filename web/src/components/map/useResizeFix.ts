import type L from 'leaflet';
import { useEffect, useRef } from 'react';

/**
 * Maps inside dialogs are created while the dialog still animates (no size yet), so Leaflet draws
 * nothing until told the size changed: watch the container and tell it.
 */
export function useResizeFix(map: L.Map, onResize?: () => void) {
  const cb = useRef(onResize);
  cb.current = onResize;
  useEffect(() => {
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => {
      map.invalidateSize({ pan: false });
      cb.current?.();
    });
    ro.observe(map.getContainer());
    return () => ro.disconnect();
  }, [map]);
}
