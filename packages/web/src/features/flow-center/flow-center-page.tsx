import { useMemo, useState } from 'react';
import { Badge, Button, Flex, Input, Segmented, Select, Tabs, Typography, theme } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FLOW_CENTER_TABS } from '@tritium/shared/contracts/flow-center/index';
import { useIsPhone } from '../../lib/use-is-phone.ts';
import { badgeText, useFlowCounts, useFlowForms, useFlowList, type FlowCenterRow, type FlowCenterTab } from './flow-center-api.ts';
import { FlowTable } from './flow-table.tsx';
import { FlowPhoneList } from './flow-phone-list.tsx';
import { RapidApproveDialog } from './rapid-approve-dialog.tsx';

type ReadState = 'unread' | 'read' | 'all';
type InstanceState = 'all' | 'running' | 'finished' | 'canceled';
const isTab = (v: string | null): v is FlowCenterTab => !!v && (FLOW_CENTER_TABS as readonly string[]).includes(v);

/** 流程中心: the tabs 待办 / 待阅 / 我发起的 / 已办 / 全部 with badges, search and filters; a table on PC, a list on phones. */
export function FlowCenterPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const isPhone = useIsPhone();
  const [params, setParams] = useSearchParams();
  const tab: FlowCenterTab = isTab(params.get('tab')) ? (params.get('tab') as FlowCenterTab) : 'todo';
  const [keyword, setKeyword] = useState('');
  const [schemaCode, setSchemaCode] = useState<string | undefined>();
  const [readState, setReadState] = useState<ReadState>('unread');
  const [instanceState, setInstanceState] = useState<InstanceState>('all');
  const [page, setPage] = useState({ index: 0, size: isPhone ? 10 : 20 });
  const [selected, setSelected] = useState<string[]>([]);
  const [rapidOpen, setRapidOpen] = useState(false);
  // On a phone the list grows: the page size grows by a page each time "more" is pressed.
  const body = { tab, pageIndex: isPhone ? 0 : page.index, pageSize: isPhone ? Math.min(100, page.size) : page.size, keyword: keyword || undefined, schemaCode, readState, instanceState };
  const list = useFlowList(body);
  const counts = useFlowCounts();
  const forms = useFlowForms();

  const switchTab = (next: string) => {
    setParams((p) => {
      p.set('tab', next);
      return p;
    });
    setPage((p) => ({ index: 0, size: isPhone ? 10 : p.size }));
    setSelected([]);
  };
  const selectedRows = useMemo(() => (list.data?.list ?? []).filter((r): r is FlowCenterRow & { workItemId: string } => !!r.workItemId && selected.includes(r.workItemId)), [list.data, selected]);

  const badgeOf = (key: FlowCenterTab) => {
    const n = key === 'todo' ? counts.data?.todo : key === 'toRead' ? counts.data?.toRead : key === 'apply' ? counts.data?.apply : undefined;
    const text = badgeText(n);
    return text ? <Badge count={text} size="small" offset={[6, -2]} data-testid={`badge-${key}`} title={String(n)} /> : null;
  };

  const toolbar = (
    <Flex gap="small" wrap align="center" style={{ marginBottom: token.marginSM }}>
      <Input.Search
        allowClear
        aria-label={t('flowCenter.search')}
        placeholder={t('flowCenter.search')}
        style={{ width: isPhone ? '100%' : 240 }}
        onSearch={(v) => {
          setKeyword(v.trim());
          setPage((p) => ({ ...p, index: 0 }));
        }}
      />
      <Select
        allowClear
        aria-label={t('flowCenter.allForms')}
        placeholder={t('flowCenter.allForms')}
        style={{ width: isPhone ? '100%' : 180 }}
        value={schemaCode}
        options={(forms.data?.list ?? []).map((f) => ({ value: f.schemaCode, label: f.formName }))}
        onChange={(v) => {
          setSchemaCode(v);
          setPage((p) => ({ ...p, index: 0 }));
        }}
      />
      {tab === 'toRead' && (
        <Segmented<ReadState> value={readState} onChange={setReadState} options={(['unread', 'read', 'all'] as const).map((v) => ({ value: v, label: t(`flowCenter.readStates.${v}`) }))} />
      )}
      {(tab === 'apply' || tab === 'all') && (
        <Select<InstanceState>
          aria-label={t('flowCenter.columns.state')}
          style={{ width: 130 }}
          value={instanceState}
          onChange={setInstanceState}
          options={(['all', 'running', 'finished', 'canceled'] as const).map((v) => ({ value: v, label: t(`flowCenter.instanceStates.${v}`) }))}
        />
      )}
      {tab === 'todo' && !isPhone && (
        <Button type="primary" disabled={!selectedRows.length} onClick={() => setRapidOpen(true)}>
          {selectedRows.length ? `${t('flowCenter.rapid.button')}（${selectedRows.length}）` : t('flowCenter.rapid.button')}
        </Button>
      )}
    </Flex>
  );

  const content = isPhone ? (
    <FlowPhoneList tab={tab} rows={list.data?.list ?? []} loading={list.isFetching} hasMore={!!list.data?.hasMore && page.size < 100} onMore={() => setPage((p) => ({ ...p, size: p.size + 10 }))} />
  ) : (
    <FlowTable
      tab={tab}
      data={list.data}
      loading={list.isFetching}
      pageIndex={page.index}
      pageSize={page.size}
      onPage={(index, size) => setPage({ index, size })}
      selected={selected}
      onSelect={tab === 'todo' ? setSelected : undefined}
    />
  );

  return (
    <div style={{ padding: isPhone ? token.paddingSM : 0 }}>
      {!isPhone && (
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {t('flowCenter.title')}
        </Typography.Title>
      )}
      <Tabs
        activeKey={tab}
        onChange={switchTab}
        items={FLOW_CENTER_TABS.map((key) => ({
          key,
          label: (
            <span>
              {t(`flowCenter.tabs.${key}`)}
              {badgeOf(key)}
            </span>
          ),
        }))}
      />
      {toolbar}
      {content}
      <RapidApproveDialog
        rows={selectedRows}
        open={rapidOpen}
        onClose={() => setRapidOpen(false)}
        onDone={() => setSelected([])}
      />
    </div>
  );
}
