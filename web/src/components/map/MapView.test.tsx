import { act, render } from '@testing-library/react';
import { applyLang } from '../../i18n';
import { afterEach, describe, expect, it } from 'vitest';
import { MapView } from './MapView';

afterEach(async () => {
  await act(() => applyLang('zh-CN', false));
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
