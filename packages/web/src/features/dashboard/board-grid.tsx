import type { Widget } from '@tritium/shared/report/index';
import { REPORT_LIMITS } from '@tritium/shared/report/index';
import type { FilterNode } from '@tritium/shared/query/index';
import { WidgetCard } from './widgets/widget-card.tsx';

/** Height of one grid row, px (the designer uses the same). */
export const ROW_HEIGHT = 40;
export const GRID_GAP = 12;

interface BoardGridProps {
  widgets: Widget[];
  filters: Record<string, FilterNode | undefined>;
  refreshSeconds: number;
  /** One column, each widget at its own height (phones). */
  stacked: boolean;
  /** The group's dimension values, with the answer's dimension data types (a province or a rolled-up department drills inside it). */
  onDrill?: (widget: Widget, values: unknown[], dataTypes: string[]) => void;
}

/** The widgets at their grid places (12 columns), or one under another on a phone. */
export function BoardGrid({ widgets, filters, refreshSeconds, stacked, onDrill }: BoardGridProps) {
  const ordered = [...widgets].sort((a, b) => a.layout.y - b.layout.y || a.layout.x - b.layout.x);
  if (stacked) {
    return (
      <div style={{ display: 'flex', flexDirection: 'column', gap: GRID_GAP }}>
        {ordered.map((w) => (
          // A phone keeps charts readable: at least 240 px tall, text and numbers at their own height.
          <WidgetCard key={w.id} widget={w} filter={filters[w.id]} refreshSeconds={refreshSeconds} onDrill={onDrill} height={w.type === 'text' || w.type === 'link' || w.type === 'number' ? undefined : Math.max(240, w.layout.h * ROW_HEIGHT)} />
        ))}
      </div>
    );
  }
  return (
    <div style={{ display: 'grid', gridTemplateColumns: `repeat(${REPORT_LIMITS.columns}, minmax(0, 1fr))`, gridAutoRows: ROW_HEIGHT, gap: GRID_GAP }}>
      {ordered.map((w) => (
        <div key={w.id} style={{ gridColumn: `${w.layout.x + 1} / span ${w.layout.w}`, gridRow: `${w.layout.y + 1} / span ${w.layout.h}`, minWidth: 0 }}>
          <WidgetCard widget={w} filter={filters[w.id]} refreshSeconds={refreshSeconds} onDrill={onDrill} />
        </div>
      ))}
    </div>
  );
}
