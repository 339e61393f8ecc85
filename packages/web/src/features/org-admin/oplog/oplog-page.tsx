import { useState } from 'react';
import { Alert, App, Button, DatePicker, Flex, Input, Select, Table, Typography } from 'antd';
import { DownloadOutlined, HistoryOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { contracts } from '@tritium/shared';
import { formatDateTimeSeconds } from '../../../lib/date-format.ts';
import { i18n } from '../../../lib/i18n.ts';
import { orgAdminApi, orgKeys } from '../api/org-admin-api.ts';
import { downloadOplog, oplogApi, oplogKeys, type OplogEntry, type OplogFilter, type OplogKind, type OplogVerifyResult } from './oplog-api.ts';
import { OplogEntryDetail } from './oplog-entry-detail.tsx';

const PAGE_SIZE = 20;

/**
 * /admin/oplog: who changed what and when (docs/decisions/0113): filters by time, person, kind and text, the export
 * of what the filters select, and the chain check that names the first entry changed or removed.
 */
/** An entry's object as people call it: a feature switch by its name in the catalogue, anything else by its own. */
function objectText(e: OplogEntry): string {
  const own = e.objectName ?? e.objectId ?? '';
  return e.kind === 'engineSetting' && e.objectId ? i18n.t(`workbench.switchNames.${e.objectId}`, { defaultValue: own }) : own;
}

export function OplogPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [filter, setFilter] = useState<OplogFilter>({});
  const [pageIndex, setPageIndex] = useState(0);
  const [personSearch, setPersonSearch] = useState('');
  const change = (next: Partial<OplogFilter>) => {
    setFilter((f) => ({ ...f, ...next }));
    setPageIndex(0);
  };
  const entries = useQuery({ queryKey: oplogKeys.list(filter, pageIndex, PAGE_SIZE), queryFn: () => oplogApi.list(filter, pageIndex, PAGE_SIZE), placeholderData: keepPreviousData });
  const peopleBody = { keyword: personSearch || undefined, pageIndex: 0, pageSize: 20 };
  const people = useQuery({ queryKey: orgKeys.users(peopleBody), queryFn: ({ signal }) => orgAdminApi.listUsers(peopleBody, signal) });
  const verify = useMutation({ mutationFn: oplogApi.verify });
  const exporting = useMutation({ mutationFn: () => downloadOplog(filter, t('oplog.fileName')), onError: () => void message.error(t('oplog.exportFailed')) });

  const kindLabel = (kind: OplogKind) => t(`oplog.kinds.${kind}`);
  const columns = [
    { title: t('oplog.columns.time'), key: 'time', width: 180, render: (_: unknown, e: OplogEntry) => formatDateTimeSeconds(e.time) },
    { title: t('oplog.columns.person'), key: 'person', width: 120, render: (_: unknown, e: OplogEntry) => e.userName ?? e.userId ?? t('oplog.system') },
    { title: t('oplog.columns.kind'), key: 'kind', width: 120, render: (_: unknown, e: OplogEntry) => kindLabel(e.kind) },
    { title: t('oplog.columns.action'), key: 'action', width: 80, render: (_: unknown, e: OplogEntry) => t(`oplog.actions.${e.action}`) },
    { title: t('oplog.columns.object'), key: 'object', render: (_: unknown, e: OplogEntry) => objectText(e) },
  ];

  return (
    <Flex vertical gap="middle">
      <Typography.Title level={4} style={{ margin: 0 }}>
        <HistoryOutlined /> {t('oplog.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('oplog.intro', { days: contracts.OPLOG_RETENTION_DAYS })}
      </Typography.Paragraph>
      <Flex wrap gap="small" align="center">
        <DatePicker.RangePicker
          aria-label={t('oplog.range')}
          showTime
          onChange={(range) => change({ from: range?.[0]?.toISOString(), to: range?.[1]?.toISOString() })}
        />
        <Select
          aria-label={t('oplog.person')}
          allowClear
          showSearch={{ filterOption: false, onSearch: setPersonSearch }}
          placeholder={t('oplog.personPlaceholder')}
          style={{ width: 160 }}
          options={(people.data?.list ?? []).map((u) => ({ value: u.id, label: u.name }))}
          onChange={(userId?: string) => change({ userId })}
        />
        <Select
          aria-label={t('oplog.kind')}
          allowClear
          placeholder={t('oplog.kindPlaceholder')}
          style={{ width: 160 }}
          options={contracts.OPLOG_KINDS.map((kind) => ({ value: kind, label: kindLabel(kind) }))}
          onChange={(kind?: OplogKind) => change({ kind })}
        />
        <Input.Search aria-label={t('oplog.text')} placeholder={t('oplog.text')} allowClear style={{ width: 240 }} onSearch={(text) => change({ text: text.trim() || undefined })} />
        <Flex gap="small" style={{ marginInlineStart: 'auto' }}>
          <Button icon={<DownloadOutlined />} loading={exporting.isPending} onClick={() => exporting.mutate()}>
            {t('oplog.export')}
          </Button>
          <Button icon={<SafetyCertificateOutlined />} loading={verify.isPending} onClick={() => verify.mutate()}>
            {t('oplog.verify')}
          </Button>
        </Flex>
      </Flex>
      {verify.data && <VerifyResult result={verify.data} />}
      <Table<OplogEntry>
        rowKey="seq"
        size="middle"
        aria-label={t('oplog.listLabel')}
        loading={entries.isLoading}
        dataSource={entries.data?.list ?? []}
        columns={columns}
        expandable={{ expandedRowRender: (e) => <OplogEntryDetail entry={e} /> }}
        locale={{ emptyText: t('oplog.empty') }}
        pagination={{
          current: pageIndex + 1,
          pageSize: PAGE_SIZE,
          total: entries.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (count) => t('oplog.total', { count }),
          onChange: (page) => setPageIndex(page - 1),
        }}
      />
    </Flex>
  );
}

function VerifyResult({ result }: { result: OplogVerifyResult }) {
  const { t } = useTranslation();
  if (result.valid) return <Alert type="success" showIcon role="status" title={t('oplog.verifyValid', { count: result.checked })} />;
  const broken = result.broken!;
  const message = broken.reason === 'edited' ? t('oplog.verifyEdited', { seq: broken.seq }) : t('oplog.verifyRemoved', { seq: broken.seq });
  return <Alert type="error" showIcon role="alert" title={message} description={broken.time ? formatDateTimeSeconds(broken.time) : undefined} />;
}
