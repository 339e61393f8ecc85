import { useState } from 'react';
import { Alert, DatePicker, Flex, Input, Select, Table, Tag, Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BIZ_LOG_LEVELS } from '@tritium/shared/contracts/bizlog/index';
import { formatDateTimeSeconds } from '../../lib/date-format.ts';
import { codeKeys, codeLogApi, type CodeLogItem, type CodeLogQuery } from './code-editor-api.ts';

// 运行日志: the business log of an app's or a form's scripts (GET /v1/toolkit/bizlog/list), filtered by level, time
// range and text; every run, its log lines and its errors at the script's own line numbers.

const PAGE_SIZE = 20;
const LEVEL_COLORS = { info: 'blue', warn: 'orange', error: 'red' } as const;
/** Handlers with a name in the catalogue; a custom action shows as its own name. */
const NAMED_HANDLERS = ['onLoad', 'afterLoad', 'onSubmit', 'onChange', 'validate', 'beforeSubmit', 'afterSubmit', 'onListAction'] as const;
type NamedHandler = (typeof NAMED_HANDLERS)[number];
const isNamed = (handler: string | null): handler is NamedHandler => NAMED_HANDLERS.includes(handler as NamedHandler);
type Filter = Omit<CodeLogQuery, 'page' | 'pageSize' | 'appCode' | 'schemaCode'>;

export function BizLogPanel({ appCode, schemaCode }: { appCode: string; schemaCode?: string }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>({});
  const [page, setPage] = useState(1);
  const change = (next: Partial<Filter>) => {
    setFilter((f) => ({ ...f, ...next }));
    setPage(1);
  };
  const query: CodeLogQuery = { appCode, schemaCode, ...filter, page, pageSize: PAGE_SIZE };
  const logs = useQuery({ queryKey: codeKeys.logs({ ...query }), queryFn: () => codeLogApi.list(query), placeholderData: keepPreviousData });
  const dash = (value: string | number | null) => (value === null || value === '' ? '--' : value);
  // A named handler in Chinese; a server action (`actions.archive`) as 操作 with the action's own name.
  const handlerLabel = (handler: string | null) =>
    isNamed(handler) ? t(`codeEditor.log.handlers.${handler}`) : handler?.startsWith('actions.') ? t('codeEditor.log.action', { name: handler.slice('actions.'.length) }) : dash(handler);
  const columns = [
    { title: t('codeEditor.log.columns.time'), key: 'at', width: 170, render: (_: unknown, l: CodeLogItem) => formatDateTimeSeconds(l.at) },
    { title: t('codeEditor.log.columns.level'), key: 'level', width: 72, render: (_: unknown, l: CodeLogItem) => <Tag color={LEVEL_COLORS[l.level]}>{t(`codeEditor.log.levels.${l.level}`)}</Tag> },
    { title: t('codeEditor.log.columns.handler'), key: 'handler', width: 120, render: (_: unknown, l: CodeLogItem) => handlerLabel(l.handler) },
    { title: t('codeEditor.log.columns.message'), key: 'message', render: (_: unknown, l: CodeLogItem) => <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{l.message}</Typography.Text> },
    { title: t('codeEditor.log.columns.line'), key: 'line', width: 64, render: (_: unknown, l: CodeLogItem) => dash(l.line) },
    { title: t('codeEditor.log.columns.duration'), key: 'duration', width: 100, render: (_: unknown, l: CodeLogItem) => dash(l.durationMs === null ? null : Math.round(l.durationMs)) },
    { title: t('codeEditor.log.columns.user'), key: 'user', width: 100, render: (_: unknown, l: CodeLogItem) => dash(l.userName) },
    { title: t('codeEditor.log.columns.requestId'), key: 'requestId', width: 140, render: (_: unknown, l: CodeLogItem) =>
        // Its first part is enough to tell the rows of one request apart; the whole id is copied and shown on hover.
        l.requestId ? <Typography.Text type="secondary" title={l.requestId} copyable={{ text: l.requestId }}>{l.requestId.slice(0, 8)}</Typography.Text> : '--' },
  ];
  return (
    <Flex vertical gap="small">
      <Flex wrap gap="small" align="center">
        <Select aria-label={t('codeEditor.log.level')} allowClear placeholder={t('codeEditor.log.allLevels')} style={{ width: 140 }}
          options={BIZ_LOG_LEVELS.map((level) => ({ value: level, label: t(`codeEditor.log.levels.${level}`) }))}
          onChange={(level?: Filter['level']) => change({ level })} />
        <DatePicker.RangePicker aria-label={t('codeEditor.log.range')} showTime
          onChange={(range) => change({ from: range?.[0]?.toISOString(), to: range?.[1]?.toISOString() })} />
        <Input.Search aria-label={t('codeEditor.log.text')} placeholder={t('codeEditor.log.text')} allowClear style={{ width: 240 }}
          onSearch={(text) => change({ text: text.trim() || undefined })} />
      </Flex>
      {logs.isError && <Alert type="warning" showIcon title={t('codeEditor.log.failed')} />}
      <Table<CodeLogItem>
        rowKey="id"
        size="small"
        aria-label={t('codeEditor.log.listLabel')}
        loading={logs.isLoading}
        dataSource={logs.data?.items ?? []}
        columns={columns}
        locale={{ emptyText: t('codeEditor.log.empty') }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: logs.data?.total ?? 0, showSizeChanger: false, showTotal: (count) => t('codeEditor.log.total', { count }), onChange: setPage }}
      />
    </Flex>
  );
}
