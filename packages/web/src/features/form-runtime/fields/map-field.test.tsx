import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { findDialog } from '../../../test/find-dialog.ts';
import { mapField, mapText } from './map-field.tsx';
import { checkRange, distanceMetres, formatPoint, rangeOf, type LatLng } from './map-range.ts';
import { renderDisplay, renderField, runtimeControl } from './test-harness.tsx';

// happy-dom lays nothing out, so leaflet cannot turn a click into a place: the map is a stub that records what it
// draws and hands its click handler to the test.
const map = vi.hoisted(() => ({ click: undefined as undefined | ((event: { latlng: LatLng }) => void), tiles: [] as string[] }));
vi.mock('react-leaflet', () => ({
  MapContainer: ({ children }: { children: ReactNode }) => <div data-testid="map">{children}</div>,
  TileLayer: ({ url }: { url: string }) => {
    map.tiles.push(url);
    return null;
  },
  Circle: ({ radius }: { radius: number }) => <div data-testid="range">{radius}</div>,
  CircleMarker: ({ center }: { center: [number, number] }) => <div data-testid="marker">{center.join(',')}</div>,
  useMapEvents: (handlers: { click: (event: { latlng: LatLng }) => void }) => {
    map.click = handlers.click;
    return null;
  },
  useMap: () => ({ setView: () => {}, getZoom: () => 16 }),
}));

const HERE: LatLng = { lat: 22.5431, lng: 113.9345 };
// 0.001° of latitude is about 111 m; 0.01° about 1.1 km.
const NEAR: LatLng = { lat: HERE.lat + 0.001, lng: HERE.lng };
const FAR: LatLng = { lat: HERE.lat + 0.01, lng: HERE.lng };

function stubGeolocation(position: LatLng | 'denied' | 'none') {
  const geolocation =
    position === 'none'
      ? undefined
      : {
          getCurrentPosition: (ok: PositionCallback, fail: PositionErrorCallback) =>
            position === 'denied'
              ? fail({ code: 1, message: 'denied' } as GeolocationPositionError)
              : ok({ coords: { latitude: position.lat, longitude: position.lng } } as GeolocationPosition),
        };
  Object.defineProperty(navigator, 'geolocation', { value: geolocation, configurable: true });
}

const clickMap = (point: LatLng) => act(() => map.click!({ latlng: point }));

beforeEach(() => {
  map.click = undefined;
  map.tiles = [];
  window.__TRITIUM_CONFIG__ = { mapTileUrl: '' };
});
afterEach(() => {
  delete window.__TRITIUM_CONFIG__;
  Object.defineProperty(navigator, 'geolocation', { value: undefined, configurable: true });
});

describe('the range rule', () => {
  it('measures great-circle distances in metres', () => {
    expect(distanceMetres(HERE, HERE)).toBe(0);
    expect(distanceMetres(HERE, NEAR)).toBeCloseTo(111.2, 0);
    // Beijing to Shanghai, about 1,067 km.
    expect(distanceMetres({ lat: 39.9042, lng: 116.4074 }, { lat: 31.2304, lng: 121.4737 }) / 1000).toBeCloseTo(1067, -1);
  });

  it('allows any place without a range, and within the range only near the position', () => {
    expect(checkRange(FAR, null, null)).toEqual({ ok: true, distance: null });
    expect(checkRange(NEAR, HERE, 200)).toMatchObject({ ok: true });
    expect(checkRange(FAR, HERE, 1000)).toMatchObject({ ok: false, reason: 'outOfRange' });
    expect(checkRange(NEAR, null, 500)).toEqual({ ok: false, reason: 'noPosition' });
    expect(rangeOf({ range: 500 })).toBe(500);
    expect(rangeOf({ range: null })).toBeNull();
    expect(formatPoint({ lat: 22.5, lng: 113.93452812 })).toBe('(22.500000, 113.934528)');
  });
});

describe('map field', () => {
  it('places a point within the range, takes the address, and shows it with its coordinates', async () => {
    stubGeolocation(HERE);
    const user = userEvent.setup();
    const { onChange } = renderField(mapField, runtimeControl('map', { range: 500 }, '位置'));
    await user.click(screen.getByRole('button', { name: '选择位置' }));
    const dialog = await findDialog('选择位置');
    expect(await within(dialog).findByTestId('range')).toHaveProperty('textContent', '500');
    expect(within(dialog).getByText('只能选择当前位置 500 米以内的位置')).toBeTruthy();
    // No tile URL configured: no tiles drawn.
    expect(map.tiles).toEqual([]);

    clickMap(NEAR);
    expect(within(dialog).getByTestId('marker').textContent).toBe(`${NEAR.lat},${NEAR.lng}`);
    await user.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    expect(within(dialog).getByRole('alert').textContent).toBe('请输入地址');
    await user.type(within(dialog).getByLabelText('地址'), '深圳湾科技生态园');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));

    expect(onChange).toHaveBeenLastCalledWith({ address: '深圳湾科技生态园', point: NEAR });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((screen.getByLabelText('位置') as HTMLInputElement).value).toBe('深圳湾科技生态园 (22.544100, 113.934500)');
  });

  it('refuses a point outside the range', async () => {
    stubGeolocation(HERE);
    const user = userEvent.setup();
    const { onChange } = renderField(mapField, runtimeControl('map', { range: 200 }, '位置'));
    await user.click(screen.getByRole('button', { name: '选择位置' }));
    const dialog = await findDialog('选择位置');
    await within(dialog).findByTestId('range');
    clickMap(FAR);
    expect(within(dialog).getByRole('alert').textContent).toBe('所选位置距当前位置 1112 米，超出 200 米范围，请重新选择');
    expect(within(dialog).queryByTestId('marker')).toBeNull();
    await user.type(within(dialog).getByLabelText('地址'), '远处');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    expect(within(dialog).getByRole('alert').textContent).toBe('请在地图上点击选择位置');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('says so when the position is unavailable and a range applies', async () => {
    stubGeolocation('denied');
    const user = userEvent.setup();
    renderField(mapField, runtimeControl('map', { range: 1000 }, '位置'));
    await user.click(screen.getByRole('button', { name: '选择位置' }));
    const dialog = await findDialog('选择位置');
    expect(await within(dialog).findByText(/无法获取当前位置/)).toBeTruthy();
    clickMap(NEAR);
    expect(within(dialog).queryByTestId('marker')).toBeNull();
  });

  it('picks anywhere without a range, draws the configured tiles, and closes with Esc', async () => {
    stubGeolocation('none');
    window.__TRITIUM_CONFIG__ = { mapTileUrl: 'https://tiles.example/{z}/{x}/{y}.png' };
    const user = userEvent.setup();
    renderField(mapField, runtimeControl('map', { range: null }, '位置'));
    await user.click(screen.getByRole('button', { name: '选择位置' }));
    const dialog = await findDialog('选择位置');
    await waitFor(() => expect(map.click).toBeDefined());
    expect(map.tiles).toContain('https://tiles.example/{z}/{x}/{y}.png');
    clickMap(FAR);
    expect(within(dialog).getByTestId('marker')).toBeTruthy();
    expect(within(dialog).queryByTestId('range')).toBeNull();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the address and coordinates, or --', () => {
    const value = { address: '南山区', point: { lat: 22.5, lng: 113.9 } };
    expect(mapText(value)).toBe('南山区 (22.500000, 113.900000)');
    renderDisplay(mapField, { control: runtimeControl('map'), value: null, print: false });
    expect(screen.getByText('--')).toBeTruthy();
  });
});
