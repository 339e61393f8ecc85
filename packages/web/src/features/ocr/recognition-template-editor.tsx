import { useEffect } from 'react';
import { Button, Drawer, Flex, Form, Input, InputNumber, Radio, Select, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { contracts } from '@tritium/shared';

type Template = contracts.RecognitionTemplateDto;
type Body = contracts.RecognitionTemplateCreateBody;

const EMPTY_FIELD = { code: '', name: '', anchors: [], direction: 'any', pattern: null, minLength: null, maxLength: null };

/**
 * A recognition template in a drawer (docs/decisions/0125): code, name, description, how it reads (labels and patterns,
 * or the chat model), and its fields — each with its labels, where the value sits, a pattern and lengths. A built-in
 * template is shown read-only. The server checks everything again (patterns that could backtrack without end, 30
 * fields at most) and answers its refusal in words.
 */
export function RecognitionTemplateEditor({
  open,
  template,
  saving,
  onSave,
  onClose,
}: {
  open: boolean;
  /** null: a new template. */
  template: Template | null;
  saving: boolean;
  onSave: (body: Body) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Body>();
  const readOnly = !!template?.builtIn;
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(template ? { templateCode: template.templateCode, name: template.name, description: template.description, mode: template.mode, fields: template.fields } : { mode: 'rules', fields: [EMPTY_FIELD] } as Partial<Body>);
  }, [open, template, form]);
  const title = readOnly ? t('ocr.templates.view') : template ? t('ocr.templates.edit') : t('ocr.templates.create');
  return (
    <Drawer
      title={title}
      open={open}
      width={760}
      onClose={onClose}
      destroyOnHidden
      extra={
        !readOnly && (
          <Button type="primary" loading={saving} onClick={() => void form.validateFields().then(onSave)}>
            {t('common.save')}
          </Button>
        )
      }
    >
      <Form form={form} layout="vertical" disabled={readOnly} requiredMark={!readOnly}>
        <Flex gap="middle">
          <Form.Item name="templateCode" label={t('ocr.templates.code')} rules={[{ required: true, message: t('ocr.templates.codeRequired') }]} style={{ flex: 1 }}>
            <Input disabled={!!template} maxLength={40} />
          </Form.Item>
          <Form.Item name="name" label={t('ocr.templates.name')} rules={[{ required: true, message: t('ocr.templates.nameRequired') }]} style={{ flex: 1 }}>
            <Input maxLength={50} />
          </Form.Item>
        </Flex>
        <Form.Item name="description" label={t('ocr.templates.description')}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item name="mode" label={t('ocr.templates.mode')} extra={t('ocr.templates.modeHelp')}>
          <Radio.Group options={contracts.OCR_TEMPLATE_MODES.map((m) => ({ value: m, label: t(`ocr.templates.modes.${m}`) }))} />
        </Form.Item>
        <Typography.Text strong>{t('ocr.templates.fields')}</Typography.Text>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {t('ocr.templates.fieldsHelp', { max: contracts.OCR_BOUNDS.fields })}
        </Typography.Paragraph>
        <Form.List name="fields">
          {(rows, { add, remove }) => (
            <Flex vertical gap={8}>
              {rows.map((row, index) => (
                <Flex key={row.key} vertical gap={4} style={{ border: '1px solid #f0f0f0', borderRadius: 6, padding: 8 }} role="group" aria-label={t('ocr.templates.fieldN', { n: index + 1 })}>
                  <Space.Compact block>
                    <Form.Item name={[row.name, 'code']} noStyle rules={[{ required: true, message: t('ocr.templates.codeRequired') }]}>
                      <Input aria-label={t('ocr.templates.fieldCode')} placeholder={t('ocr.templates.fieldCode')} style={{ width: '30%' }} maxLength={40} />
                    </Form.Item>
                    <Form.Item name={[row.name, 'name']} noStyle rules={[{ required: true, message: t('ocr.templates.nameRequired') }]}>
                      <Input aria-label={t('ocr.templates.fieldName')} placeholder={t('ocr.templates.fieldName')} style={{ width: '30%' }} maxLength={30} />
                    </Form.Item>
                    <Form.Item name={[row.name, 'direction']} noStyle>
                      <Select aria-label={t('ocr.templates.direction')} style={{ width: '40%' }} options={contracts.OCR_ANCHOR_DIRECTIONS.map((d) => ({ value: d, label: t(`ocr.templates.directions.${d}`) }))} />
                    </Form.Item>
                  </Space.Compact>
                  <Form.Item name={[row.name, 'anchors']} noStyle>
                    <Select mode="tags" aria-label={t('ocr.templates.anchors')} placeholder={t('ocr.templates.anchorsPlaceholder')} maxCount={contracts.OCR_BOUNDS.anchors} open={false} />
                  </Form.Item>
                  <Flex gap={8} align="center">
                    <Form.Item name={[row.name, 'pattern']} noStyle>
                      <Input aria-label={t('ocr.templates.pattern')} placeholder={t('ocr.templates.patternPlaceholder')} maxLength={contracts.OCR_BOUNDS.patternChars} style={{ flex: 1, fontFamily: 'monospace' }} />
                    </Form.Item>
                    <Form.Item name={[row.name, 'minLength']} noStyle>
                      <InputNumber aria-label={t('ocr.templates.minLength')} placeholder={t('ocr.templates.minLength')} min={1} max={500} style={{ width: 96 }} />
                    </Form.Item>
                    <Form.Item name={[row.name, 'maxLength']} noStyle>
                      <InputNumber aria-label={t('ocr.templates.maxLength')} placeholder={t('ocr.templates.maxLength')} min={1} max={500} style={{ width: 96 }} />
                    </Form.Item>
                    {!readOnly && <Button aria-label={t('ocr.templates.removeField')} icon={<DeleteOutlined />} onClick={() => remove(row.name)} disabled={rows.length <= 1} />}
                  </Flex>
                </Flex>
              ))}
              {!readOnly && (
                <Button icon={<PlusOutlined />} onClick={() => add({ ...EMPTY_FIELD })} disabled={rows.length >= contracts.OCR_BOUNDS.fields}>
                  {t('ocr.templates.addField')}
                </Button>
              )}
            </Flex>
          )}
        </Form.List>
      </Form>
    </Drawer>
  );
}
