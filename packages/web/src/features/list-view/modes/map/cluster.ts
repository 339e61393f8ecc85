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
 * Groups places whose screen positions (by `project`, at the map's zoom) lie within `cell` pixels of a cluster's first
 * place; each cluster sits at the mean of its places. Greedy, in the order given: enough for the view's 1,000 markers,
 * and two close places are never split by a grid line.
 */
export function clusterOf<T>(places: Place<T>[], project: (place: Place<T>) => { x: number; y: number }, cell: number): Cluster<T>[] {
  const groups: { x: number; y: number; items: Place<T>[] }[] = [];
  for (const place of places) {
    const { x, y } = project(place);
    const near = groups.find((g) => Math.abs(g.x - x) <= cell && Math.abs(g.y - y) <= cell);
    if (near) near.items.push(place);
    else groups.push({ x, y, items: [place] });
  }
  return groups.map(({ items }) => ({
    lat: items.reduce((s, p) => s + p.lat, 0) / items.length,
    lng: items.reduce((s, p) => s + p.lng, 0) / items.length,
    items,
  }));
}
