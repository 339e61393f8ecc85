import { Button, Flex, Input, InputNumber, Radio, Select, Switch, Typography, Upload } from 'antd';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { CodeSource, PrintElement } from '@tritium/shared/print/index';
import type { Fields } from './new-element.ts';

type Patch = (patch: Partial<PrintElement>) => void;

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Flex vertical gap={2}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>{label}</Typography.Text>
      {children}
    </Flex>
  );
}

const mm = (value: number, onChange: (v: number) => void, label: string) => (
  <InputNumber aria-label={label} size="small" min={0} max={600} step={0.5} value={value} onChange={(v) => onChange(Number(v ?? 0))} style={{ width: '100%' }} />
);

/** The selected element's settings (issue 24): place and size in mm, then what its type needs. */
export function ElementProperties({ element: e, fields, onChange, onRemove }: { element: PrintElement; fields: Fields; onChange: Patch; onRemove(): void }) {
  const { t } = useTranslation();
  const plain = fields.filter((f) => f.kind !== 'subTable').map((f) => ({ value: f.code, label: f.label }));
  const grids = fields.filter((f) => f.kind === 'subTable');
  const text = (e: PrintElement) => 'fontSize' in e;
  const source = (s: CodeSource) => (
    <>
      <Row label={t('print.designer.source')}>
        <Radio.Group size="small" value={s.kind} onChange={(ev) => onChange({ source: ev.target.value === 'field' ? { kind: 'field', field: plain[0]?.value ?? 'Name' } : ev.target.value === 'formula' ? { kind: 'formula', formula: '{SeqNo}' } : { kind: 'link' } } as Partial<PrintElement>)}
          options={[{ value: 'link', label: t('print.designer.sourceLink') }, { value: 'field', label: t('print.designer.sourceField') }, { value: 'formula', label: t('print.designer.sourceFormula') }]} />
      </Row>
      {s.kind === 'field' && <Select size="small" aria-label={t('print.designer.field')} value={s.field} options={plain} onChange={(field) => onChange({ source: { kind: 'field', field } } as Partial<PrintElement>)} />}
      {s.kind === 'formula' && <Input size="small" aria-label={t('print.designer.formula')} value={s.formula} onChange={(ev) => onChange({ source: { kind: 'formula', formula: ev.target.value } } as Partial<PrintElement>)} />}
    </>
  );
  return (
    <Flex vertical gap="small">
      <Flex justify="space-between" align="center">
        <Typography.Text strong>{t(`print.designer.types.${e.type}`)}</Typography.Text>
        <Button size="small" danger icon={<DeleteOutlined />} onClick={onRemove}>{t('print.designer.remove')}</Button>
      </Flex>
      <Flex gap="small">
        <Row label="X (mm)">{mm(e.x, (x) => onChange({ x }), 'X')}</Row>
        <Row label="Y (mm)">{mm(e.y, (y) => onChange({ y }), 'Y')}</Row>
      </Flex>
      <Flex gap="small">
        <Row label={t('print.designer.width')}>{mm(e.width, (width) => onChange({ width }), t('print.designer.width'))}</Row>
        <Row label={t('print.designer.height')}>{mm(e.height, (height) => onChange({ height }), t('print.designer.height'))}</Row>
      </Flex>
      {e.type === 'field' && (
        <>
          <Row label={t('print.designer.field')}><Select size="small" aria-label={t('print.designer.field')} value={e.field} options={plain} onChange={(field) => onChange({ field })} showSearch optionFilterProp="label" /></Row>
          <Flex gap="small" align="center"><Switch size="small" checked={e.showLabel} onChange={(showLabel) => onChange({ showLabel })} /> {t('print.designer.showLabel')}</Flex>
          <Flex gap="small" align="center"><Switch size="small" checked={e.grow} onChange={(grow) => onChange({ grow })} /> {t('print.designer.grow')}</Flex>
        </>
      )}
      {e.type === 'label' && <Row label={t('print.designer.text')}><Input.TextArea aria-label={t('print.designer.text')} autoSize value={e.text} onChange={(ev) => onChange({ text: ev.target.value })} /></Row>}
      {e.type === 'subTable' && (
        <>
          <Row label={t('print.designer.subTable')}><Select size="small" aria-label={t('print.designer.subTable')} value={e.field} options={grids.map((g) => ({ value: g.code, label: g.label }))} onChange={(field) => onChange({ field, columns: [] })} /></Row>
          <Row label={t('print.designer.columns')}>
            <Select size="small" mode="multiple" aria-label={t('print.designer.columns')} placeholder={t('print.designer.allColumns')} value={e.columns.map((c) => c.field)}
              options={(grids.find((g) => g.code === e.field)?.columns ?? []).map((c) => ({ value: c.code, label: c.label }))}
              onChange={(codes: string[]) => onChange({ columns: codes.map((field) => ({ field })) })} />
          </Row>
        </>
      )}
      {(e.type === 'qrCode' || e.type === 'barcode') && source(e.source)}
      {e.type === 'line' && <Radio.Group size="small" value={e.direction} onChange={(ev) => onChange({ direction: ev.target.value })} options={[{ value: 'horizontal', label: t('print.designer.horizontal') }, { value: 'vertical', label: t('print.designer.vertical') }]} />}
      {e.type === 'approvalTrace' && <Flex gap="small" align="center"><Switch size="small" checked={e.showSignature} onChange={(showSignature) => onChange({ showSignature })} /> {t('print.designer.showSignature')}</Flex>}
      {e.type === 'pageNumber' && <Row label={t('print.designer.format')}><Input size="small" aria-label={t('print.designer.format')} value={e.format} onChange={(ev) => onChange({ format: ev.target.value })} /></Row>}
      {e.type === 'image' && (
        <Upload accept="image/png,image/jpeg" showUploadList={false} beforeUpload={(file) => {
          const reader = new FileReader();
          reader.onload = () => onChange({ src: String(reader.result) });
          reader.readAsDataURL(file);
          return false;
        }}>
          <Button size="small" icon={<UploadOutlined />}>{t('print.designer.chooseImage')}</Button>
        </Upload>
      )}
      {text(e) && 'fontSize' in e && (
        <Flex gap="small" align="end">
          <Row label={t('print.designer.fontSize')}><InputNumber size="small" aria-label={t('print.designer.fontSize')} min={6} max={72} value={e.fontSize} onChange={(v) => onChange({ fontSize: Number(v ?? 10) })} /></Row>
          {'bold' in e && <Flex gap={4} align="center"><Switch size="small" checked={e.bold} onChange={(bold) => onChange({ bold })} /> {t('print.designer.bold')}</Flex>}
        </Flex>
      )}
      {'align' in e && <Radio.Group size="small" value={e.align} onChange={(ev) => onChange({ align: ev.target.value })} options={[{ value: 'left', label: t('print.designer.left') }, { value: 'center', label: t('print.designer.center') }, { value: 'right', label: t('print.designer.right') }]} />}
    </Flex>
  );
}
