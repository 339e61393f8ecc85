import { Button, Checkbox, Flex, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FieldPermission } from '@tritium/shared/workflow/index';
import { useDesignContext } from '../model/design-context.ts';
import { setFieldPermission } from '../model/template-model.ts';

const FLAGS = ['visible', 'editable', 'required'] as const;
const DEFAULT: FieldPermission = { visible: true, editable: false, required: false };

/** Per-field permissions on one node over the published form's fields; fields not set are visible and read-only. */
export function FieldPermissionsTable({ value, onChange }: { value: Record<string, FieldPermission>; onChange: (v: Record<string, FieldPermission>) => void }) {
  const { t } = useTranslation();
  const { fields } = useDesignContext();
  if (!fields.length) return <Typography.Text type="secondary">{t('workflowDesigner.permissions.noFields')}</Typography.Text>;
  const all = (permission: FieldPermission) => onChange(Object.fromEntries(fields.map((f) => [f.code, { ...permission }])));
  return (
    <Flex vertical gap="small">
      <Flex gap="small">
        <Button size="small" onClick={() => all({ visible: true, editable: true, required: false })}>
          {t('workflowDesigner.permissions.allEditable')}
        </Button>
        <Button size="small" onClick={() => all(DEFAULT)}>
          {t('workflowDesigner.permissions.allReadOnly')}
        </Button>
      </Flex>
      <Table
        size="small"
        pagination={false}
        rowKey="code"
        dataSource={fields}
        aria-label={t('workflowDesigner.permissions.title')}
        columns={[
          { title: t('workflowDesigner.permissions.field'), dataIndex: 'name', ellipsis: true },
          ...FLAGS.map((flag) => ({
            title: t(`workflowDesigner.permissions.${flag}`),
            key: flag,
            width: 56,
            align: 'center' as const,
            render: (_: unknown, field: { code: string; name: string }) => (
              <Checkbox
                aria-label={`${field.name} ${t(`workflowDesigner.permissions.${flag}`)}`}
                checked={(value[field.code] ?? DEFAULT)[flag]}
                onChange={(e) => onChange(setFieldPermission(value, field.code, flag, e.target.checked))}
              />
            ),
          })),
        ]}
      />
    </Flex>
  );
}
