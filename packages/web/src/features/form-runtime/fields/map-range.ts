/** The map control's range rule (controls/map.ts option `range`): only places this far from the person may be picked. */

export interface LatLng {
  lat: number;
  lng: number;
}

const EARTH_RADIUS_METRES = 6_371_008.8;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** The great-circle distance between two points, in metres (haversine). */
export function distanceMetres(a: LatLng, b: LatLng): number {
  const dLat = radians(b.lat - a.lat);
  const dLng = radians(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_METRES * Math.asin(Math.min(1, Math.sqrt(h)));
}

export type RangeCheck =
  | { ok: true; distance: number | null }
  /** The person's position is unknown, so no place can be checked. */
  | { ok: false; reason: 'noPosition' }
  | { ok: false; reason: 'outOfRange'; distance: number };

/** Whether a point may be picked: any point when range is null, else only within range metres of the position. */
export function checkRange(point: LatLng, position: LatLng | null, range: number | null): RangeCheck {
  if (range === null) return { ok: true, distance: position ? distanceMetres(position, point) : null };
  if (!position) return { ok: false, reason: 'noPosition' };
  const distance = distanceMetres(position, point);
  return distance <= range ? { ok: true, distance } : { ok: false, reason: 'outOfRange', distance };
}

/** The control's range option, or null: only 200, 500 and 1000 are allowed (domain.md §9). */
export function rangeOf(options: Record<string, unknown>): number | null {
  const range = options.range;
  return typeof range === 'number' && range > 0 ? range : null;
}

/** "(22.543096, 113.934528)": coordinates as the field shows them, 6 decimals. */
export function formatPoint(point: LatLng): string {
  return `(${point.lat.toFixed(6)}, ${point.lng.toFixed(6)})`;
}
