import { useRef, type PointerEvent as ReactPointerEvent } from 'react';
import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { contentSize, paperSize, type PrintElement, type PrintElementType, type PrintLayout } from '@tritium/shared/print/index';
import { ElementPreview } from './element-preview.tsx';
import type { Fields } from './new-element.ts';

/** Pixels per millimetre on the design page. */
export const SCALE = 3;
export const DRAG_TYPE = 'application/x-tritium-print-element';
const round = (v: number) => Math.round(v * 2) / 2;

interface CanvasProps {
  layout: PrintLayout;
  fields: Fields;
  selected: string | null;
  onSelect(id: string | null): void;
  onChange(id: string, patch: Partial<PrintElement>): void;
  onDrop(type: PrintElementType, at: { x: number; y: number }): void;
}

/**
 * The page as it will print (issue 24): the paper, its margins dashed, the elements placed in millimetres. An element
 * moves by dragging it and resizes by its corner handle (pointer events, snapped to half millimetres); palette items
 * are dropped where they should go.
 */
export function DesignCanvas({ layout, fields, selected, onSelect, onChange, onDrop }: CanvasProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const content = useRef<HTMLDivElement>(null);
  const paper = paperSize(layout.page);
  const area = contentSize(layout.page);
  const m = layout.page.margins;

  const track = (event: ReactPointerEvent, element: PrintElement, mode: 'move' | 'resize') => {
    event.stopPropagation();
    event.preventDefault();
    onSelect(element.id);
    const start = { px: event.clientX, py: event.clientY, x: element.x, y: element.y, w: element.width, h: element.height };
    const move = (e: PointerEvent) => {
      const dx = (e.clientX - start.px) / SCALE;
      const dy = (e.clientY - start.py) / SCALE;
      if (mode === 'move') onChange(element.id, { x: round(Math.min(Math.max(0, start.x + dx), area.width - 1)), y: round(Math.min(Math.max(0, start.y + dy), area.height - 1)) });
      else onChange(element.id, { width: round(Math.max(1, start.w + dx)), height: round(Math.max(element.type === 'line' ? 0 : 2, start.h + dy)) });
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };

  return (
    <div style={{ padding: 24, background: token.colorFillTertiary, minHeight: '100%', overflow: 'auto' }} onPointerDown={() => onSelect(null)}>
      <div aria-label={t('print.designer.page')} role="region"
        style={{ position: 'relative', width: paper.width * SCALE, height: paper.height * SCALE, background: '#fff', margin: '0 auto', boxShadow: '0 1px 6px rgba(0,0,0,.2)' }}>
        <div ref={content} data-testid="print-content"
          onDragOver={(e) => { if (e.dataTransfer.types.includes(DRAG_TYPE)) e.preventDefault(); }}
          onDrop={(e) => {
            const type = e.dataTransfer.getData(DRAG_TYPE) as PrintElementType;
            if (!type || !content.current) return;
            e.preventDefault();
            const r = content.current.getBoundingClientRect();
            onDrop(type, { x: round((e.clientX - r.left) / SCALE), y: round((e.clientY - r.top) / SCALE) });
          }}
          style={{ position: 'absolute', left: m.left * SCALE, top: m.top * SCALE, width: area.width * SCALE, height: area.height * SCALE, outline: `1px dashed ${token.colorBorder}` }}>
          {layout.elements.map((e) => (
            <div key={e.id} role="button" aria-label={`${t(`print.designer.types.${e.type}`)} ${e.id}`} data-element-id={e.id} tabIndex={0}
              onPointerDown={(ev) => track(ev, e, 'move')}
              style={{
                position: 'absolute', left: e.x * SCALE, top: e.y * SCALE, width: e.width * SCALE, height: Math.max(e.height * SCALE, 4), cursor: 'move', touchAction: 'none',
                outline: selected === e.id ? `2px solid ${token.colorPrimary}` : `1px dotted ${token.colorBorderSecondary}`, overflow: 'hidden', userSelect: 'none',
              }}>
              <ElementPreview element={e} fields={fields} scale={SCALE} />
              {selected === e.id && (
                <div aria-label={t('print.designer.resize')} onPointerDown={(ev) => track(ev, e, 'resize')}
                  style={{ position: 'absolute', right: 0, bottom: 0, width: 10, height: 10, background: token.colorPrimary, cursor: 'nwse-resize' }} />
              )}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
