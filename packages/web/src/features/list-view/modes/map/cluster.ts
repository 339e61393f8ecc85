/** A record's place on the map. */
export interface Place<T> {
  lat: number;
  lng: number;
  item: T;
}

export interface Cluster<T> {
  lat: number;
  lng: number;
  items: Place<T>[];
}

/**
 * Groups places whose screen positions (by `project`, at the map's zoom) fall in the same square of `cell` pixels;
 * each cluster sits at the mean of its places. Greedy grid clustering: enough for up to the view's 1,000 markers.
 */
export function clusterOf<T>(places: Place<T>[], project: (place: Place<T>) => { x: number; y: number }, cell: number): Cluster<T>[] {
  const cells = new Map<string, Place<T>[]>();
  for (const place of places) {
    const { x, y } = project(place);
    const key = `${Math.floor(x / cell)}:${Math.floor(y / cell)}`;
    const list = cells.get(key) ?? [];
    list.push(place);
    cells.set(key, list);
  }
  return [...cells.values()].map((items) => ({
    lat: items.reduce((s, p) => s + p.lat, 0) / items.length,
    lng: items.reduce((s, p) => s + p.lng, 0) / items.length,
    items,
  }));
}
