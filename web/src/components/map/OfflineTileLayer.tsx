import L from 'leaflet';
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';
import { config } from '../../config';
import { STORAGE } from '../../app/store';

/**
 * The offline base map: tiles of the server's MBTiles file (/tiles/{z}/{x}/{y}). Tiles are fetched
 * with the session's bearer token (they are served to signed-in users only, and an <img> cannot send
 * a header) and shown from blob: URLs, which the CSP allows; a missing tile (404) stays blank.
 */
const AuthTileLayer = L.TileLayer.extend({
  createTile(this: L.TileLayer, coords: L.Coords, done: L.DoneCallback) {
    const img = document.createElement('img');
    img.alt = '';
    img.setAttribute('role', 'presentation');
    const url = `${config.apiBase ?? ''}/tiles/${coords.z}/${coords.x}/${coords.y}`;
    fetch(url, { headers: { Authorization: `Bearer ${localStorage.getItem(STORAGE.token) ?? ''}` } })
      .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(String(r.status)))))
      .then((b) => {
        const src = URL.createObjectURL(b);
        img.onload = () => {
          URL.revokeObjectURL(src);
          done(undefined, img);
        };
        img.src = src;
      })
      .catch((e: Error) => done(e, img));
    return img;
  },
});

export function OfflineTileLayer({ minZoom = 0, maxZoom = 18, attribution, onLoad, onError }: { minZoom?: number; maxZoom?: number; attribution?: string; onLoad?: () => void; onError?: () => void }) {
  const map = useMap();
  useEffect(() => {
    const layer = new (AuthTileLayer as unknown as new (url: string, o: L.TileLayerOptions) => L.TileLayer)('', {
      minNativeZoom: minZoom,
      maxNativeZoom: maxZoom,
      maxZoom: 18,
      zIndex: 2,
      attribution,
    });
    if (onLoad) layer.on('tileload', onLoad);
    if (onError) layer.on('tileerror', onError);
    layer.addTo(map);
    return () => {
      layer.remove();
    };
  }, [map, minZoom, maxZoom, attribution, onLoad, onError]);
  return null;
}
