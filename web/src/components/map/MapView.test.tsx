import { act, fireEvent, render, screen } from '@testing-library/react';
import { applyLang } from '../../i18n';
import { afterEach, describe, expect, it } from 'vitest';
import { testSession } from '../../features/access/testing';
import { useAppStore } from '../../app/store';
import { MapView } from './MapView';

afterEach(async () => {
  await act(() => applyLang('zh-CN', false));
  useAppStore.setState({ session: null });
});

function zoomTitles(container: HTMLElement) {
  return [container.querySelector('.leaflet-control-zoom-in')?.getAttribute('title'), container.querySelector('.leaflet-control-zoom-out')?.getAttribute('title')];
}

describe('MapView zoom control', () => {
  it('names its zoom buttons in the console language, and follows a language switch', async () => {
    const { container } = render(<MapView tiles="none" />);
    expect(zoomTitles(container)).toEqual(['放大', '缩小']);
    await act(() => applyLang('zh-TW', false));
    expect(zoomTitles(container)).toEqual(['放大', '縮小']);
    await act(() => applyLang('en-US', false));
    expect(zoomTitles(container)).toEqual(['Zoom in', 'Zoom out']);
    expect(container.querySelectorAll('.leaflet-control-zoom')).toHaveLength(1);
    // the attribution names Leaflet without its English title
    const leaflet = container.querySelector('.leaflet-control-attribution a[href="https://leafletjs.com"]');
    expect(leaflet?.textContent).toBe('Leaflet');
    expect(leaflet?.getAttribute('title')).toBeNull();
  });
});

describe('MapView layers (Gaode: 标准 / 卫星)', () => {
  const gaodeTiles = (container: HTMLElement) =>
    [...container.querySelectorAll<HTMLImageElement>('img.leaflet-tile')].map((i) => new URL(i.src).hostname.replace(/\d+/g, ''));

  it("opens on the preferred layer, and the map's own switch changes it", async () => {
    useAppStore.setState({ session: { ...testSession, prefs: { theme: '', mapLayer: 'satellite', pageSize: 0 } } });
    const { container } = render(<MapView tiles="gaode" style={{ width: 400, height: 300 }} />);
    const map = screen.getByTestId('map');
    expect(map.dataset.layer).toBe('satellite');
    expect(await screen.findByText('卫星')).toBeTruthy();
    expect(new Set(gaodeTiles(container))).toEqual(new Set(['webst.is.autonavi.com']));
    fireEvent.click(screen.getByText('标准'));
    expect(map.dataset.layer).toBe('normal');
    expect(new Set(gaodeTiles(container))).toEqual(new Set(['webrd.is.autonavi.com']));
  });

  it('opens on the standard layer without a preference; maps without Gaode offer no switch', () => {
    const { unmount } = render(<MapView tiles="gaode" />);
    expect(screen.getByTestId('map').dataset.layer).toBe('normal');
    unmount();
    render(<MapView tiles="none" />);
    expect(screen.getByTestId('map').dataset.layer).toBeUndefined();
    expect(screen.queryByText('卫星')).toBeNull();
  });
});
