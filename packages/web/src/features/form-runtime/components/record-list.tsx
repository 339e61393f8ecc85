import { useState } from 'react';
import { Button, Empty, Flex, Table, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@tritium/shared/controls/index';
import { ERRORS } from '@tritium/shared/errors/catalogue';
import { isApiError } from '../../../lib/api-error.ts';
import { useIsPhone } from '../../../lib/use-is-phone.ts';
import { runtimeApi, runtimeKeys } from '../api/runtime-api.ts';
import { EMPTY_TEXT } from '../fields/field-types.ts';
import { StatusTag } from '../fields/other-fields.tsx';
import { RuntimeFormModal, type OpenForm } from './runtime-form-modal.tsx';

type Row = { ObjectId: string; Name?: string; SeqNo?: string | null; Status?: number; CreatedTime?: string };
const PAGE_SIZES = [10, 20, 50, 100] as const;
const FORM_NOT_PUBLISHED = ERRORS.FormNotPublished.code;

/**
 * A form's records, newest first, with 新增 and a click to open one: the basic list until the list views issue
 * brings columns, filters and views.
 */
export function RecordList({ schemaCode, canCreate = true }: { schemaCode: string; canCreate?: boolean }) {
  const { t } = useTranslation();
  const device = useIsPhone() ? 'phone' : 'pc';
  const [page, setPage] = useState({ index: 0, size: 20 as (typeof PAGE_SIZES)[number] });
  const [open, setOpen] = useState<OpenForm | null>(null);
  const form = useQuery({ queryKey: runtimeKeys.form(schemaCode), queryFn: () => runtimeApi.loadForm(schemaCode), retry: false });
  const records = useQuery({
    queryKey: [...runtimeKeys.records(schemaCode), page.index, page.size],
    queryFn: () => runtimeApi.query({ schemaCode, pageIndex: page.index, pageSize: page.size }),
    enabled: form.isSuccess,
  });
  if (form.isError) {
    const unpublished = isApiError(form.error) && form.error.errorCode === FORM_NOT_PUBLISHED;
    return <Empty description={unpublished ? t('formRuntime.list.unpublished') : t('formRuntime.loadFailed')} />;
  }
  const rows = (records.data?.list ?? []) as Row[];
  return (
    <Flex vertical gap="small">
      <Flex gap="small">
        {canCreate && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen({ schemaCode, mode: 'Create' })}>
            {t('formRuntime.list.create')}
          </Button>
        )}
      </Flex>
      <Table<Row>
        size="middle"
        rowKey="ObjectId"
        loading={records.isFetching}
        dataSource={rows}
        locale={{ emptyText: t('formRuntime.list.empty') }}
        onRow={(row) => ({ onClick: () => setOpen({ schemaCode, objectId: row.ObjectId, mode: 'View' }), style: { cursor: 'pointer' } })}
        pagination={{
          current: page.index + 1,
          pageSize: page.size,
          total: records.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES.map(String),
          onChange: (current, size) => setPage({ index: current - 1, size: size as (typeof PAGE_SIZES)[number] }),
        }}
        columns={[
          { key: 'Name', title: t('formRuntime.list.name'), render: (_v, row) => <Typography.Link>{row.Name || EMPTY_TEXT}</Typography.Link> },
          { key: 'SeqNo', title: t('formRuntime.list.seqNo'), render: (_v, row) => row.SeqNo || EMPTY_TEXT, responsive: ['md'] },
          { key: 'Status', title: t('formRuntime.list.status'), render: (_v, row) => <StatusTag status={row.Status} /> },
          { key: 'CreatedTime', title: t('formRuntime.list.createdTime'), render: (_v, row) => (row.CreatedTime ? formatDateTime(row.CreatedTime, 'yyyy-mm-dd hh:mm') : EMPTY_TEXT), responsive: ['md'] },
        ]}
      />
      <RuntimeFormModal open={open} device={device} onChange={setOpen} />
    </Flex>
  );
}
