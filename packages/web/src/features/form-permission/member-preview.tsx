import { useState } from 'react';
import { Alert, Descriptions, Empty, Flex, Spin, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { controlDisplayText } from '@tritium/shared/controls/index';
import { currentLocale } from '../../lib/i18n.ts';
import { permissionApi, permissionKeys, type FormPreview, type FormRights } from './permission-api.ts';

// "Preview as" (docs/decisions/0056): the member's rights, the first page of the list and one record exactly as the
// server answers them to that member. Nothing here decides what they see: hidden fields and records outside their
// scope are simply absent from the answer. A row of the list opens that record as the member reads it.

interface MemberPreviewProps {
  schemaCode: string;
  user: { id: string; name: string };
  /** A field's label by code (sub-table columns as `Grid.Column`). */
  label: (code: string) => string;
}

type Column = FormPreview['columns'][number];

export function MemberPreview({ schemaCode, user, label }: MemberPreviewProps) {
  const { t } = useTranslation();
  const [objectId, setObjectId] = useState<string | undefined>();
  const preview = useQuery({
    queryKey: permissionKeys.preview(schemaCode, user.id, objectId),
    queryFn: () => permissionApi.preview(schemaCode, user.id, objectId),
    placeholderData: (previous) => previous,
  });
  const data = preview.data;
  if (!data) return <Spin />;
  if (!data.opens) return <Alert type="warning" showIcon title={t('formPermission.previewNoNode', { name: user.name })} />;
  const display = { locale: currentLocale() };
  const text = (column: Column, value: unknown) => (value == null || value === '' ? '' : controlDisplayText(column, value, display));
  const shown = data.record?.system.ObjectId ?? undefined;
  return (
    <Flex vertical gap="small">
      {data.rights && <RightsSummary rights={data.rights} label={label} />}
      <Typography.Text strong>{t('formPermission.previewList', { name: user.name, total: data.total })}</Typography.Text>
      <Table
        aria-label={t('formPermission.previewList', { name: user.name, total: data.total })}
        size="small"
        bordered
        pagination={false}
        rowKey={(r) => String(r.ObjectId)}
        dataSource={data.list}
        locale={{ emptyText: t(data.rights?.actions.includes('view') ? 'formPermission.previewEmpty' : 'formPermission.previewNoView') }}
        rowClassName={(r) => (r.ObjectId === shown ? 'ant-table-row-selected' : '')}
        onRow={(r) => ({ onClick: () => setObjectId(String(r.ObjectId)), style: { cursor: 'pointer' } })}
        columns={data.columns.map((c) => ({ key: c.code, title: c.displayName, render: (_: unknown, r: Record<string, unknown>) => text(c, r[c.code]) }))}
        scroll={{ x: 'max-content' }}
      />
      <Typography.Text strong>{t('formPermission.previewRecord', { name: user.name })}</Typography.Text>
      {data.record ? (
        <Descriptions bordered size="small" column={1} aria-label={t('formPermission.previewRecord', { name: user.name })}>
          {data.columns.filter((c) => c.code in data.record!.values).map((c) => (
            <Descriptions.Item key={c.code} label={c.displayName}>
              {text(c, data.record!.values[c.code])}
              {data.record!.fieldRights?.[c.code] === 'readonly' && <Tag style={{ marginInlineStart: 8 }}>{t('formPermission.rights.readonly')}</Tag>}
            </Descriptions.Item>
          ))}
        </Descriptions>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('formPermission.previewNoRecord')} />
      )}
    </Flex>
  );
}

function RightsSummary({ rights, label }: { rights: FormRights; label: (code: string) => string }) {
  const { t } = useTranslation();
  const fields = Object.entries(rights.fieldRights);
  return (
    <Descriptions bordered size="small" column={1} aria-label={t('formPermission.previewRights')}>
      <Descriptions.Item label={t('formPermission.source')}>{t(`formPermission.sources.${rights.source}`)}</Descriptions.Item>
      <Descriptions.Item label={t('formPermission.actions')}>
        {rights.actions.length ? rights.actions.map((a) => <Tag key={a}>{t(`formPermission.actionNames.${a}`)}</Tag>) : t('formPermission.none')}
      </Descriptions.Item>
      <Descriptions.Item label={t('formPermission.viewScope')}>{rights.viewScopes.map((s) => t(`formPermission.scopes.${s}`)).join('、') || t('formPermission.none')}</Descriptions.Item>
      <Descriptions.Item label={t('formPermission.editScope')}>{rights.editScopes.map((s) => t(`formPermission.scopes.${s}`)).join('、') || t('formPermission.none')}</Descriptions.Item>
      <Descriptions.Item label={t('formPermission.fieldRights')}>
        {fields.length ? fields.map(([code, right]) => `${label(code)}（${t(`formPermission.rights.${right}`)}）`).join('、') : t('formPermission.allEditable')}
      </Descriptions.Item>
    </Descriptions>
  );
}
