import type { CSSProperties, ReactNode } from 'react';
import type { PrintElement, PrintElementType } from '@tritium/shared/print/index';
import { useTranslation } from 'react-i18next';
import type { Fields } from './new-element.ts';

type Of<K extends PrintElementType> = Extract<PrintElement, { type: K }>;
interface PreviewProps<K extends PrintElementType> {
  e: Of<K>;
  fields: Fields;
  scale: number;
  labelOf(code: string): string;
  font(size: number): CSSProperties;
}

// The designer's look of each element kind, keyed by the kinds of the print element registry (one entry a kind; a
// missing one is a type error).
const PREVIEWS: { [K in PrintElementType]: (p: PreviewProps<K>) => ReactNode } = {
  field: ({ e, labelOf, font }) => <div style={{ ...font(e.fontSize), fontWeight: e.bold ? 700 : 400, textAlign: e.align }}>{e.showLabel ? `${e.label ?? labelOf(e.field)}：` : ''}<span style={{ color: '#1677ff' }}>{`{${labelOf(e.field)}}`}</span></div>,
  label: ({ e, font }) => <div style={{ ...font(e.fontSize), fontWeight: e.bold ? 700 : 400, textAlign: e.align, whiteSpace: 'pre-wrap' }}>{e.text}</div>,
  subTable: ({ e, fields, font }) => <GridPreview e={e} fields={fields} font={font} />,
  approvalTrace: ({ e, font }) => <TraceHeader style={font(e.fontSize)} />,
  line: ({ e, scale }) => <div style={e.direction === 'horizontal' ? { borderTop: `${Math.max(1, e.thickness * scale)}px solid #000` } : { borderInlineStart: `${Math.max(1, e.thickness * scale)}px solid #000`, height: '100%' }} />,
  box: ({ e, scale }) => <div style={{ border: `${Math.max(1, e.thickness * scale)}px solid #000`, width: '100%', height: '100%', boxSizing: 'border-box' }} />,
  image: ({ e }) => <img src={e.src} alt="" style={{ width: '100%', height: '100%', objectFit: 'contain', background: '#fafafa' }} />,
  qrCode: () => <TypeName type="qrCode" style={{ width: '100%', height: '100%', border: '1px dashed #999', display: 'grid', placeItems: 'center', fontSize: 11, textAlign: 'center' }} />,
  barcode: () => <div style={{ width: '100%', height: '100%', background: 'repeating-linear-gradient(90deg,#000 0 2px,#fff 2px 4px,#000 4px 5px,#fff 5px 8px)' }} />,
  pageNumber: ({ e, font }) => <div style={{ ...font(e.fontSize), textAlign: 'center', color: '#666' }}>{e.format.replace('{page}', '1').replace('{pages}', '1')}</div>,
};

function TypeName({ type, style }: { type: PrintElementType; style: CSSProperties }) {
  const { t } = useTranslation();
  return <div style={style}>{t(`print.designer.types.${type}`)}</div>;
}

function TraceHeader({ style }: { style: CSSProperties }) {
  const { t } = useTranslation();
  return <div style={{ border: '1px solid #000', background: '#f2f2f2', ...style, padding: '0 2px' }}>{t('print.designer.traceHeader')}</div>;
}

function GridPreview({ e, fields, font }: Pick<PreviewProps<'subTable'>, 'e' | 'fields' | 'font'>) {
  const grid = fields.find((f) => f.code === e.field);
  const columns = e.columns.length ? e.columns.map((c) => c.label ?? grid?.columns?.find((x) => x.code === c.field)?.label ?? c.field) : (grid?.columns ?? []).map((c) => c.label);
  return (
    <div style={{ display: 'flex', border: '1px solid #000', background: '#f2f2f2', ...font(e.fontSize) }}>
      {columns.map((c, i) => <div key={i} style={{ flex: 1, borderInlineStart: i ? '1px solid #000' : 0, padding: '0 2px', overflow: 'hidden', whiteSpace: 'nowrap' }}>{c}</div>)}
      {!columns.length && <TypeName type="subTable" style={{ padding: '0 2px' }} />}
    </div>
  );
}

/** How an element looks on the design page: its label and the field it shows, a grid's header, a code's sign. */
export function ElementPreview({ element, fields, scale }: { element: PrintElement; fields: Fields; scale: number }) {
  const labelOf = (code: string) => fields.find((f) => f.code === code)?.label ?? code;
  const font = (size: number): CSSProperties => ({ fontSize: size * 0.3528 * scale, lineHeight: 1.3 });
  const Preview = PREVIEWS[element.type] as (p: PreviewProps<PrintElementType>) => ReactNode;
  return <Preview e={element as never} fields={fields} scale={scale} labelOf={labelOf} font={font} />;
}
