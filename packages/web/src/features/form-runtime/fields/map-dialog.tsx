/** The map control's picker: a leaflet map to click, the address, and the range around the person's position. */
import { useEffect, useState } from 'react';
import { Alert, Input, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Circle, CircleMarker, MapContainer, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import 'leaflet/dist/leaflet.css';
import { TEXT_BOX_MAX_LENGTH } from '@tritium/shared/constants/limits';
import { checkRange, formatPoint, type LatLng } from './map-range.ts';

export interface MapValue {
  address: string;
  point: LatLng;
}

declare global {
  interface Window {
    /** Settings the page is served with; mapTileUrl: the tile URL template ('' draws no tiles). */
    __TRITIUM_CONFIG__?: { mapTileUrl?: string };
  }
}

export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/** The tile URL template from the page's settings, OpenStreetMap's by default; empty means no tiles (tests, offline). */
export function mapTileUrl(): string {
  const configured = typeof window === 'undefined' ? undefined : window.__TRITIUM_CONFIG__?.mapTileUrl;
  return configured ?? DEFAULT_TILE_URL;
}

// Where the map opens when neither a picked place nor the person's position is known: Beijing.
const FALLBACK_CENTER: LatLng = { lat: 39.9042, lng: 116.4074 };

type Locating = 'idle' | 'locating' | 'ready' | 'unavailable';

function usePosition(wanted: boolean): { position: LatLng | null; locating: Locating } {
  const [position, setPosition] = useState<LatLng | null>(null);
  const [locating, setLocating] = useState<Locating>('idle');
  useEffect(() => {
    if (!wanted) return;
    const geolocation = typeof navigator === 'undefined' ? undefined : navigator.geolocation;
    if (!geolocation) {
      setLocating('unavailable');
      return;
    }
    let live = true;
    setLocating('locating');
    geolocation.getCurrentPosition(
      ({ coords }) => {
        if (!live) return;
        setPosition({ lat: coords.latitude, lng: coords.longitude });
        setLocating('ready');
      },
      () => live && setLocating('unavailable'),
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 60_000 },
    );
    return () => {
      live = false;
    };
  }, [wanted]);
  return { position, locating };
}

function ClickToPick({ onPick }: { onPick: (point: LatLng) => void }) {
  useMapEvents({ click: (event) => onPick({ lat: event.latlng.lat, lng: event.latlng.lng }) });
  return null;
}

/** Moves the map to the person once their position arrives (unless a place is already picked). */
function FollowPosition({ position }: { position: LatLng | null }) {
  const map = useMap();
  useEffect(() => {
    if (position) map.setView([position.lat, position.lng], Math.max(map.getZoom?.() ?? 16, 16));
  }, [map, position]);
  return null;
}

export interface MapDialogProps {
  open: boolean;
  value: MapValue | null;
  /** Metres around the person's position, or null for anywhere. */
  range: number | null;
  onClose: () => void;
  onConfirm: (value: MapValue) => void;
}

export default function MapDialog({ open, value, range, onClose, onConfirm }: MapDialogProps) {
  const { t } = useTranslation();
  const [point, setPoint] = useState<LatLng | null>(value?.point ?? null);
  const [address, setAddress] = useState(value?.address ?? '');
  const [error, setError] = useState<string>();
  const { position, locating } = usePosition(open);
  const tileUrl = mapTileUrl();
  const center = point ?? position ?? FALLBACK_CENTER;

  const handlePick = (picked: LatLng) => {
    const check = checkRange(picked, position, range);
    if (!check.ok) {
      setError(
        check.reason === 'noPosition'
          ? t('formRuntimeFields.map.noGeolocation', { range })
          : t('formRuntimeFields.map.outOfRange', { range, distance: Math.round(check.distance) }),
      );
      return;
    }
    setError(undefined);
    setPoint(picked);
  };

  const handleOk = () => {
    if (!point) return setError(t('formRuntimeFields.map.pointRequired'));
    if (!address.trim()) return setError(t('formRuntimeFields.map.addressRequired'));
    onConfirm({ address: address.trim(), point });
  };

  return (
    <Modal
      open={open}
      title={t('formRuntimeFields.map.title')}
      onCancel={onClose}
      onOk={handleOk}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      width={720}
      destroyOnHidden
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        {range !== null && locating === 'unavailable' ? (
          <Alert type="warning" showIcon title={t('formRuntimeFields.map.noGeolocation', { range })} />
        ) : (
          <Typography.Text type="secondary">
            {range !== null && locating === 'locating'
              ? t('formRuntimeFields.map.locating')
              : range !== null
                ? t('formRuntimeFields.map.rangeHint', { range })
                : t('formRuntimeFields.map.clickHint')}
          </Typography.Text>
        )}
        <div role="application" aria-label={t('formRuntimeFields.map.map')} style={{ height: 320 }}>
          <MapContainer center={[center.lat, center.lng]} zoom={point || position ? 16 : 11} style={{ height: '100%', width: '100%' }}>
            {tileUrl && <TileLayer url={tileUrl} attribution={tileUrl === DEFAULT_TILE_URL ? t('formRuntimeFields.map.osmAttribution') : undefined} />}
            {!point && <FollowPosition position={position} />}
            {range !== null && position && <Circle center={[position.lat, position.lng]} radius={range} pathOptions={{ weight: 1 }} />}
            {point && <CircleMarker center={[point.lat, point.lng]} radius={8} pathOptions={{ weight: 2, fillOpacity: 0.8 }} />}
            <ClickToPick onPick={handlePick} />
          </MapContainer>
        </div>
        {point && <Typography.Text>{t('formRuntimeFields.map.picked', { point: formatPoint(point) })}</Typography.Text>}
        <Input
          aria-label={t('formRuntimeFields.map.address')}
          placeholder={t('formRuntimeFields.map.addressPlaceholder')}
          value={address}
          maxLength={TEXT_BOX_MAX_LENGTH}
          onChange={(event) => setAddress(event.target.value)}
          onPressEnter={handleOk}
        />
        {error && (
          <Typography.Text type="danger" role="alert">
            {error}
          </Typography.Text>
        )}
      </Space>
    </Modal>
  );
}
