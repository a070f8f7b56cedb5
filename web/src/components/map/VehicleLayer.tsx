import { useEffect, useMemo, useRef } from 'react';
import { useMap } from 'react-leaflet';
import type { MapCar } from '../../api/monitor';
import { useTileSource } from './MapView';
import { VehicleCanvas } from './vehicleCanvas';
import { toVehiclePoints } from './vehicleIndex';

export interface VehicleLayerProps {
  /** The cars to draw (WGS-84 as the server sends them; cars without a fix are skipped). */
  cars: readonly MapCar[];
  selectedId?: number | null;
  onSelect?: (carId: number) => void;
}

/**
 * Vehicles on one canvas (not one element per car): status-coloured arrows rotated by direction,
 * clustered (60 px) when zoomed out. The cluster index is rebuilt only when `cars` changes.
 */
export function VehicleLayer({ cars, selectedId, onSelect }: VehicleLayerProps) {
  const map = useMap();
  const source = useTileSource();
  const layer = useRef<VehicleCanvas | null>(null);
  const points = useMemo(() => toVehiclePoints(cars, source), [cars, source]);

  useEffect(() => {
    const vc = new VehicleCanvas(map);
    layer.current = vc;
    return () => {
      vc.remove();
      layer.current = null;
    };
  }, [map]);
  useEffect(() => layer.current?.setPoints(points), [points, map]);
  useEffect(() => layer.current?.setSelected(selectedId), [selectedId, map]);
  useEffect(() => layer.current?.setOnSelect(onSelect), [onSelect, map]);
  return null;
}
