import { useState } from 'react';
import { App, Button, Drawer, Empty, Flex, Input, Select, Table } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AUTOMATION_RUN_STATES, type AutomationRunState } from '@tritium/shared/automation/index';
import { useIsPhone } from '../../../lib/use-is-phone.ts';
import { automationApi, automationKeys, type AutomationRunDto } from '../automation-api.ts';
import { RunDetail } from './run-detail.tsx';
import { RunStateTag } from './run-state-tag.tsx';
import { formatDateTimeSeconds } from '../../../lib/date-format.ts';

const PAGE_SIZE = 20;

interface RunLogDrawerProps {
  schemaCode: string;
  /** One automation's runs; undefined for the whole form's. */
  automation?: { id: string; name: string };
  onClose: () => void;
}

/** 运行日志: a form's (or one automation's) runs, newest first, by state and keyword; a run's detail; 重试 on failed runs. */
export function RunLogDrawer({ schemaCode, automation, onClose }: RunLogDrawerProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const isPhone = useIsPhone();
  const [state, setState] = useState<AutomationRunState | undefined>();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(0);
  const [openRun, setOpenRun] = useState<AutomationRunDto | null>(null);
  const body = { schemaCode, automationId: automation?.id, state, keyword: keyword || undefined, pageIndex: page, pageSize: PAGE_SIZE };
  const logs = useQuery({ queryKey: [...automationKeys.logs(schemaCode), body], queryFn: () => automationApi.logs(body) });
  const retry = useMutation({
    mutationFn: (runId: string) => automationApi.retry(runId),
    onSuccess: () => {
      void message.success(t('automation.log.retried'));
      setOpenRun(null);
      void client.invalidateQueries({ queryKey: automationKeys.logs(schemaCode) });
    },
  });
  const retryButton = (run: AutomationRunDto) =>
    run.state === 'Failed' && (
      <Button size="small" type="link" loading={retry.isPending && retry.variables === run.runId} onClick={(e) => { e.stopPropagation(); retry.mutate(run.runId); }}>
        {t('automation.log.retry')}
      </Button>
    );
  return (
    <Drawer open onClose={onClose} size={isPhone ? '100%' : 960} title={automation ? `${automation.name} · ${t('automation.log.title')}` : t('automation.log.title')}>
      <Flex vertical gap="middle">
        <Flex gap="small" wrap>
          <Select aria-label={t('automation.log.state')} allowClear placeholder={t('automation.log.allStates')} value={state} style={{ width: 140 }}
            options={AUTOMATION_RUN_STATES.map((s) => ({ value: s, label: t(`automation.log.states.${s}`) }))} onChange={(s) => { setState(s); setPage(0); }} />
          <Input.Search allowClear aria-label={t('automation.log.search')} placeholder={t('automation.log.search')} style={{ flex: '1 1 220px', maxWidth: 360 }}
            onSearch={(k) => { setKeyword(k.trim()); setPage(0); }} />
        </Flex>
        <Table<AutomationRunDto>
          rowKey="runId"
          size="small"
          loading={logs.isFetching}
          dataSource={logs.data?.runs ?? []}
          scroll={{ x: 760 }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('automation.log.empty')} /> }}
          onRow={(run) => ({ onClick: () => setOpenRun(run), style: { cursor: 'pointer' } })}
          pagination={{ current: page + 1, pageSize: PAGE_SIZE, total: logs.data?.total ?? 0, showSizeChanger: false, onChange: (p) => setPage(p - 1) }}
          columns={[
            { key: 'state', title: t('automation.log.state'), width: 90, render: (_, run) => <RunStateTag state={run.state} /> },
            ...(automation ? [] : [{ key: 'automation', title: t('automation.log.automation'), width: 180, ellipsis: true, render: (_: unknown, run: AutomationRunDto) => run.automationName }]),
            { key: 'trigger', title: t('automation.log.trigger'), width: 130, render: (_, run) => t(`automation.triggers.${run.triggerType}`, { defaultValue: run.triggerType }) },
            { key: 'record', title: t('automation.log.record'), width: 150, ellipsis: true, render: (_, run) => run.objectId ?? '--' },
            { key: 'duration', title: t('automation.log.duration'), width: 90, render: (_, run) => (run.durationMs === null ? '--' : t('automation.log.ms', { n: run.durationMs })) },
            { key: 'time', title: t('automation.log.time'), width: 150, render: (_, run) => formatDateTimeSeconds(run.createdTime) },
            { key: 'actions', title: '', width: 110, render: (_, run) => (
              <Flex>
                <Button size="small" type="link" onClick={(e) => { e.stopPropagation(); setOpenRun(run); }}>{t('automation.log.detail')}</Button>
                {retryButton(run)}
              </Flex>
            ) },
          ]}
        />
      </Flex>
      {openRun && <RunDetail run={openRun} onClose={() => setOpenRun(null)} onRetry={() => retry.mutate(openRun.runId)} isRetrying={retry.isPending} />}
    </Drawer>
  );
}
