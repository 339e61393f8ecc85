import type { PrintElement } from '@tritium/shared/print/index';
import { useTranslation } from 'react-i18next';
import type { Fields } from './new-element.ts';

/** How an element looks on the design page: its label and the field it shows, a grid's header, a code's sign. */
export function ElementPreview({ element: e, fields, scale }: { element: PrintElement; fields: Fields; scale: number }) {
  const { t } = useTranslation();
  const labelOf = (code: string) => fields.find((f) => f.code === code)?.label ?? code;
  const font = (size: number) => ({ fontSize: size * 0.3528 * scale, lineHeight: 1.3 });
  switch (e.type) {
    case 'field':
      return <div style={{ ...font(e.fontSize), fontWeight: e.bold ? 700 : 400, textAlign: e.align }}>{e.showLabel ? `${e.label ?? labelOf(e.field)}：` : ''}<span style={{ color: '#1677ff' }}>{`{${labelOf(e.field)}}`}</span></div>;
    case 'label':
      return <div style={{ ...font(e.fontSize), fontWeight: e.bold ? 700 : 400, textAlign: e.align, whiteSpace: 'pre-wrap' }}>{e.text}</div>;
    case 'subTable': {
      const grid = fields.find((f) => f.code === e.field);
      const columns = e.columns.length ? e.columns.map((c) => c.label ?? grid?.columns?.find((x) => x.code === c.field)?.label ?? c.field) : (grid?.columns ?? []).map((c) => c.label);
      return (
        <div style={{ display: 'flex', border: '1px solid #000', background: '#f2f2f2', ...font(e.fontSize) }}>
          {columns.map((c, i) => <div key={i} style={{ flex: 1, borderInlineStart: i ? '1px solid #000' : 0, padding: '0 2px', overflow: 'hidden', whiteSpace: 'nowrap' }}>{c}</div>)}
          {!columns.length && <div style={{ padding: '0 2px' }}>{t('print.designer.types.subTable')}</div>}
        </div>
      );
    }
    case 'approvalTrace':
      return <div style={{ border: '1px solid #000', background: '#f2f2f2', ...font(e.fontSize), padding: '0 2px' }}>{t('print.designer.traceHeader')}</div>;
    case 'line':
      return <div style={e.direction === 'horizontal' ? { borderTop: `${Math.max(1, e.thickness * scale)}px solid #000` } : { borderInlineStart: `${Math.max(1, e.thickness * scale)}px solid #000`, height: '100%' }} />;
    case 'box':
      return <div style={{ border: `${Math.max(1, e.thickness * scale)}px solid #000`, width: '100%', height: '100%', boxSizing: 'border-box' }} />;
    case 'image':
      return <img src={e.src} alt="" style={{ width: '100%', height: '100%', objectFit: 'contain', background: '#fafafa' }} />;
    case 'qrCode':
      return <div style={{ width: '100%', height: '100%', border: '1px dashed #999', display: 'grid', placeItems: 'center', fontSize: 11, textAlign: 'center' }}>{t('print.designer.types.qrCode')}</div>;
    case 'barcode':
      return <div style={{ width: '100%', height: '100%', background: 'repeating-linear-gradient(90deg,#000 0 2px,#fff 2px 4px,#000 4px 5px,#fff 5px 8px)' }} />;
    case 'pageNumber':
      return <div style={{ ...font(e.fontSize), textAlign: 'center', color: '#666' }}>{e.format.replace('{page}', '1').replace('{pages}', '1')}</div>;
  }
}
