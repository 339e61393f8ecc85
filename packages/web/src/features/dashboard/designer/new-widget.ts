import { REPORT_LIMITS, STATIC_WIDGET_TYPES, type Widget, type WidgetType } from '@tritium/shared/report/index';

/** Columns a new widget spans: half the grid, so its title and its hint are not cut off. */
export const NEW_WIDGET_COLUMNS = REPORT_LIMITS.columns / 2;

/** Where a new widget lands: the first place, row by row, where it fits beside the others. */
function freeSpot(widgets: Widget[], w: number, h: number): { x: number; y: number } {
  const overlaps = (x: number, y: number) => widgets.some((o) => x < o.layout.x + o.layout.w && o.layout.x < x + w && y < o.layout.y + o.layout.h && o.layout.y < y + h);
  for (let y = 0; ; y++) for (let x = 0; x + w <= REPORT_LIMITS.columns; x++) if (!overlaps(x, y)) return { x, y };
}

/** A new widget of the type, at the first free place of the board. */
export function newWidget(type: WidgetType, widgets: Widget[]): Widget {
  let n = widgets.length + 1;
  while (widgets.some((w) => w.id === `w${n}`)) n++;
  const isSmall = type === 'number' || type === 'link' || type === 'text';
  const size = { w: NEW_WIDGET_COLUMNS, h: isSmall ? 3 : 7 };
  return {
    id: `w${n}`,
    type,
    title: '',
    layout: { ...freeSpot(widgets, size.w, size.h), ...size },
    dimensions: [],
    measures: STATIC_WIDGET_TYPES.includes(type) ? [] : [{ aggregate: 'count' }],
    totals: false,
    ...(type === 'text' ? { text: '' } : {}),
  };
}
