import { useEffect, useState } from 'react';
import { Alert, Button, Flex, List, Segmented, Spin, Typography, theme } from 'antd';
import { AimOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Circle, CircleMarker, MapContainer, Marker, TileLayer, Tooltip, useMap, useMapEvents } from 'react-leaflet';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { CALENDAR_VIEW_MAX_RECORDS } from '@tritium/shared/constants/limits';
import { MAP_RADII, mapMode, settingsOf } from '@tritium/shared/view-modes/index';
import { runtimeKeys } from '../../../form-runtime/api/runtime-api.ts';
import { listViewApi } from '../../api/list-view-api.ts';
import { useIsPhone } from '../../../../lib/use-is-phone.ts';
import type { ModeRuntimeProps, Row } from '../types.ts';
import { clusterOf, type Place } from './cluster.ts';

// The map (view mode 5; docs/decisions/0047) on leaflet: the view's records with a place as markers, close ones drawn
// as one numbered cluster (click to zoom in); a range search of 200, 500 or 1,000 m around the person's position or a
// point clicked on the map, answered by POST /v1/bizdata/view/map (nearest first). Tiles come from the view's setting;
// without one the map is blank (no network needed).

type Point = { lat: number; lng: number };
const FALLBACK_CENTER: Point = { lat: 39.9042, lng: 116.4074 };

const placeOf = (row: Row, field: string): Point | null => {
  const value = row[field] as { point?: Point } | null | undefined;
  return value?.point && Number.isFinite(value.point.lat) && Number.isFinite(value.point.lng) ? value.point : null;
};

export default function MapView(props: ModeRuntimeProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const isPhone = useIsPhone();
  const settings = settingsOf(mapMode, props.view.settings);
  const [center, setCenter] = useState<Point | null>(null);
  const [radius, setRadius] = useState<number | null>(null);
  const [locating, setLocating] = useState<'idle' | 'failed'>('idle');
  const search = center && radius ? { center, radius: radius as 200 | 500 | 1000 } : {};
  const records = useQuery({
    queryKey: [...runtimeKeys.records(props.schemaCode), 'map', props.narrowing, search],
    queryFn: () => listViewApi.map({ ...props.narrowing, ...search }),
  });
  const rows = (records.data?.list ?? []) as Row[];
  const places: Place<Row>[] = rows.flatMap((row) => {
    const point = placeOf(row, settings.locationField);
    return point ? [{ ...point, item: row }] : [];
  });
  const title = (row: Row) => String(row[settings.titleField] ?? row.Name ?? '') || t('viewModes.calendar.untitled');
  const locate = () =>
    navigator.geolocation?.getCurrentPosition(
      ({ coords }) => { setCenter({ lat: coords.latitude, lng: coords.longitude }); setRadius((r) => r ?? settings.radius); },
      () => setLocating('failed'),
      { timeout: 15_000, maximumAge: 60_000 },
    );
  const start = center ?? places[0] ?? FALLBACK_CENTER;
  return (
    <Flex vertical gap="small" role="region" aria-label={t('viewModes.modes.map')}>
      <Flex gap="small" align="center" wrap>
        <Typography.Text>{t('viewModes.radius')}</Typography.Text>
        <Segmented aria-label={t('viewModes.radius')} value={radius ?? 0} onChange={(v) => setRadius(Number(v) || null)}
          options={[{ value: 0, label: t('viewModes.map.all') }, ...MAP_RADII.map((r) => ({ value: r, label: `${r} m` }))]} />
        <Button icon={<AimOutlined />} onClick={locate}>{t('viewModes.map.myPosition')}</Button>
        <Typography.Text type="secondary">{center ? t('viewModes.map.around', { lat: center.lat.toFixed(5), lng: center.lng.toFixed(5) }) : t('viewModes.map.pickHint')}</Typography.Text>
      </Flex>
      {locating === 'failed' && <Alert type="warning" showIcon title={t('viewModes.map.noPosition')} />}
      {records.data?.hasMore && <Alert type="warning" showIcon title={t('viewModes.calendar.tooMany', { total: records.data.total, max: CALENDAR_VIEW_MAX_RECORDS })} />}
      <Flex gap="small" vertical={isPhone}>
        {/* The map opens on the first record's place: drawn once the records are known (its centre is read once). */}
        {!records.data ? <Spin style={{ flex: 1 }} /> : <div style={{ flex: isPhone ? 'none' : 1, minWidth: 0, height: isPhone ? 360 : Math.max(420, props.height), borderRadius: token.borderRadius, overflow: 'hidden', border: `1px solid ${token.colorBorderSecondary}` }}>
          <MapContainer center={[start.lat, start.lng]} zoom={center ? 15 : 11} style={{ height: '100%', width: '100%', background: token.colorFillQuaternary }}>
            {settings.tileUrl && <TileLayer url={settings.tileUrl} />}
            <PickPoint onPick={(point) => { setCenter(point); setRadius((r) => r ?? settings.radius); }} />
            <Follow to={center} />
            {center && radius && <Circle center={[center.lat, center.lng]} radius={radius} pathOptions={{ color: token.colorPrimary, weight: 1 }} />}
            <Markers places={places} title={title} onOpen={props.onOpen} colour={token.colorPrimary} />
          </MapContainer>
        </div>}
        <div style={{ width: isPhone ? '100%' : 260, flex: 'none', maxHeight: isPhone ? undefined : Math.max(420, props.height), overflowY: 'auto' }}>
          <Typography.Text strong>{t('viewModes.map.count', { count: records.data?.total ?? 0 })}</Typography.Text>
          <List size="small" aria-label={t('viewModes.map.list')} dataSource={rows} loading={records.isFetching}
            renderItem={(row) => (
              <List.Item key={row.ObjectId} style={{ cursor: 'pointer' }} onClick={() => props.onOpen(row)}>
                <Typography.Text ellipsis>{title(row)}</Typography.Text>
              </List.Item>
            )} />
        </div>
      </Flex>
    </Flex>
  );
}

function PickPoint({ onPick }: { onPick: (point: Point) => void }) {
  useMapEvents({ click: (e) => onPick({ lat: e.latlng.lat, lng: e.latlng.lng }) });
  return null;
}

function Follow({ to }: { to: Point | null }) {
  const map = useMap();
  const lat = to?.lat;
  const lng = to?.lng;
  useEffect(() => {
    if (lat !== undefined && lng !== undefined) map.setView([lat, lng], Math.max(map.getZoom(), 14));
  }, [map, lat, lng]);
  return null;
}

/** Markers clustered by screen distance at the map's zoom; a cluster shows its count and zooms in when clicked. */
function Markers({ places, title, onOpen, colour }: { places: Place<Row>[]; title: (row: Row) => string; onOpen: (row: Row) => void; colour: string }) {
  const map = useMap();
  const [zoom, setZoom] = useState(map.getZoom());
  useMapEvents({ zoomend: () => setZoom(map.getZoom()) });
  const clusters = clusterOf(places, (p) => map.project([p.lat, p.lng], zoom), 48);
  return (
    <>
      {clusters.map((c) =>
        c.items.length === 1 ? (
          <CircleMarker key={c.items[0].item.ObjectId} center={[c.lat, c.lng]} radius={8} pathOptions={{ color: colour, fillOpacity: 0.8 }} bubblingMouseEvents={false} eventHandlers={{ click: () => onOpen(c.items[0].item) }}>
            <Tooltip>{title(c.items[0].item)}</Tooltip>
          </CircleMarker>
        ) : (
          <Marker key={c.items.map((i) => i.item.ObjectId).join()} position={[c.lat, c.lng]}
            icon={L.divIcon({ className: '', html: `<div style="width:34px;height:34px;border-radius:17px;background:${colour};color:#fff;display:flex;align-items:center;justify-content:center;font-weight:600;box-shadow:0 0 0 4px rgba(22,119,255,.25)">${c.items.length}</div>`, iconSize: [34, 34], iconAnchor: [17, 17] })}
            eventHandlers={{ click: () => map.setView([c.lat, c.lng], Math.min(map.getZoom() + 2, 18)) }} />
        ),
      )}
    </>
  );
}
