import { useState } from 'react';
import { Alert, App, Button, Checkbox, Flex, Input, Layout, Typography, theme } from 'antd';
import { ArrowLeftOutlined, SaveOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PRINT_ELEMENT_TYPES, type PrintElement, type PrintElementType, type PrintLayout } from '@tritium/shared/print/index';
import { isApiError } from '../../../lib/api-error.ts';
import { useIsPhone } from '../../../lib/use-is-phone.ts';
import { printApi, printKeys, type PrintTemplateDto } from '../print-api.ts';
import { DesignCanvas, DRAG_TYPE } from './design-canvas.tsx';
import { ElementProperties } from './element-properties.tsx';
import { newElement, type Fields } from './new-element.ts';
import { PageProperties } from './page-properties.tsx';

const EMPTY: PrintLayout = { page: { size: 'A4', orientation: 'portrait', margins: { top: 12, right: 12, bottom: 12, left: 12 } }, elements: [] };

/**
 * The print template designer (issue 24): the palette of elements (left; drag onto the page or click to add below the
 * last), the page (centre; drag to move, the corner to resize), the properties of the selection or of the paper
 * (right); 保存 sends the whole template, and the server's refusal is shown as it names the problem.
 */
export function TemplateDesigner({ schemaCode, fields, initial, onBack }: { schemaCode: string; fields: Fields; initial?: PrintTemplateDto; onBack(): void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [name, setName] = useState(initial?.name ?? t('print.designer.defaultName'));
  const [isDefault, setIsDefault] = useState(initial?.isDefault ?? false);
  const [layout, setLayout] = useState<PrintLayout>(initial?.layout ?? EMPTY);
  const [templateId, setTemplateId] = useState(initial?.templateId);
  const [selected, setSelected] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const element = layout.elements.find((e) => e.id === selected);
  // On a phone the three panes stack: the palette as a row of buttons, the page (scrolled), the properties below.
  const phone = useIsPhone();

  const change = (id: string, patch: Partial<PrintElement>) => setLayout((l) => ({ ...l, elements: l.elements.map((e) => (e.id === id ? ({ ...e, ...patch } as PrintElement) : e)) }));
  const add = (type: PrintElementType, at?: { x: number; y: number }) => {
    setLayout((l) => {
      const below = at ?? { x: 0, y: Math.max(0, ...l.elements.map((e) => e.y + e.height + 2)) };
      const created = newElement(type, below, fields, l.elements, t('print.designer.newLabel'));
      setSelected(created.id);
      return { ...l, elements: [...l.elements, created] };
    });
  };
  const save = async () => {
    setSaving(true);
    setProblem(null);
    try {
      const saved = await printApi.save({ schemaCode, name, isDefault, layout, ...(templateId ? { templateId } : {}) });
      setTemplateId(saved.templateId);
      await queryClient.invalidateQueries({ queryKey: printKeys.header(schemaCode) });
      message.success(t('print.designer.saved'));
    } catch (error) {
      const issues = isApiError(error) ? (error.detail as { issues?: { path: string; message: string }[] } | undefined)?.issues : undefined;
      setProblem(issues?.length ? issues.map((i) => `${i.path}: ${i.message}`).join('；') : (error as Error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Layout style={{ height: '100vh' }}>
      <Flex component="header" align="center" gap="small" wrap style={{ minHeight: 56, padding: `8px ${token.padding}px`, background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
        <Button type="text" icon={<ArrowLeftOutlined />} aria-label={t('print.designer.back')} onClick={onBack} />
        <Input aria-label={t('print.designer.name')} value={name} onChange={(e) => setName(e.target.value)} maxLength={50} style={{ maxWidth: 260 }} />
        <Checkbox checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)}>{t('print.designer.isDefault')}</Checkbox>
        <div style={{ flex: 1 }} />
        <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save()}>{t('print.designer.save')}</Button>
      </Flex>
      {problem && <Alert type="error" showIcon title={problem} closable onClose={() => setProblem(null)} />}
      <Flex vertical={phone} style={{ flex: 1, minHeight: 0, overflow: phone ? 'auto' : undefined }}>
        <Flex vertical={!phone} wrap={phone} gap={6} style={{ ...(phone ? {} : { width: 168, flex: '0 0 168px' }), padding: token.paddingSM, background: token.colorBgContainer, borderInlineEnd: `1px solid ${token.colorBorderSecondary}`, overflow: 'auto' }}>
          <Typography.Text strong>{t('print.designer.palette')}</Typography.Text>
          {PRINT_ELEMENT_TYPES.map((type) => (
            <Button key={type} draggable block={!phone} size={phone ? 'small' : 'middle'} style={{ justifyContent: 'flex-start' }} onDragStart={(e) => e.dataTransfer.setData(DRAG_TYPE, type)} onClick={() => add(type)}>
              {t(`print.designer.types.${type}`)}
            </Button>
          ))}
        </Flex>
        <main style={{ flex: phone ? '0 0 auto' : 1, minWidth: 0, overflow: 'auto', maxHeight: phone ? 520 : undefined }}>
          <DesignCanvas layout={layout} fields={fields} selected={selected} onSelect={setSelected} onChange={change} onDrop={(type, at) => add(type, at)} />
        </main>
        <aside aria-label={t('print.designer.properties')} style={{ ...(phone ? {} : { width: 280, flex: '0 0 280px' }), padding: token.paddingSM, background: token.colorBgContainer, borderInlineStart: `1px solid ${token.colorBorderSecondary}`, overflow: 'auto' }}>
          {element ? (
            <ElementProperties key={element.id} element={element} fields={fields} onChange={(patch) => change(element.id, patch)}
              onRemove={() => { setLayout((l) => ({ ...l, elements: l.elements.filter((e) => e.id !== element.id) })); setSelected(null); }} />
          ) : (
            <PageProperties page={layout.page} onChange={(page) => setLayout((l) => ({ ...l, page }))} />
          )}
        </aside>
      </Flex>
    </Layout>
  );
}
