import { Empty, Flex, Skeleton, Tag, Timeline, Typography, theme } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/date-format.ts';
import { useDisplayContext, NamesProvider } from '../model/names.tsx';
import { workflowApi, workflowKeys, type WorkflowDetail } from './workflow-api.ts';

const OPEN_STATES = new Set(['Waiting', 'Working']);
// Actions that agree (green), disagree or turn back (red); the rest are neutral.
const AGREE = new Set(['start', 'submit', 'consultReply', 'autoPass', 'finish', 'read', 'childAgreed']);
const DISAGREE = new Set(['reject', 'forback', 'rejectFlow', 'cancel', 'retrieve', 'childRefused']);
// Actions whose receivers are people (a send-back's receivers are the nodes it returns to).
const TO_PEOPLE = new Set(['forward', 'addsignBefore', 'addsignAfter', 'consult', 'circulate', 'urge']);
const receiversOf = (c: WorkflowDetail['comments'][number]) => (TO_PEOPLE.has(c.action) ? c.receivers : []);

/** The originator's submit of the start node starts the flow: it reads 发起, not 同意. */
function actionOf(c: WorkflowDetail['comments'][number], startCodes: ReadonlySet<string>): string {
  return c.action === 'submit' && c.activityCode !== null && startCodes.has(c.activityCode) ? 'start' : c.action;
}

/** The approval trace (审批记录): every action and opinion, oldest first, then who has the record now. */
export function ApprovalTrace({ instanceId }: { instanceId: string }) {
  const detail = useQuery({ queryKey: workflowKeys.detail(instanceId), queryFn: () => workflowApi.detail(instanceId) });
  if (!detail.data) return <Skeleton active />;
  const d = detail.data;
  const unitIds = [...new Set([...d.comments.flatMap((c) => [c.userId, ...receiversOf(c)]), ...d.items.map((i) => i.participant)])].sort();
  return (
    <NamesProvider request={{ unitIds, objects: [] }}>
      <TraceList detail={d} />
    </NamesProvider>
  );
}

function TraceList({ detail }: { detail: WorkflowDetail }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const names = useDisplayContext();
  const name = (id: string) => names.unitName?.(id) ?? id;
  const activityName = new Map(detail.tokens.map((tk) => [tk.activityCode, tk.activityName]));
  const pending = detail.items.filter((i) => OPEN_STATES.has(i.state));
  if (detail.comments.length === 0 && pending.length === 0) return <Empty description={t('formWorkflow.trace.empty')} />;
  // The start node: the log's start entry names it, and it is the instance's first token.
  const startCodes = new Set([
    ...detail.comments.filter((c) => c.action === 'start').map((c) => c.activityCode),
    ...detail.tokens.filter((tk) => tk.seq === 1).map((tk) => tk.activityCode),
  ].filter((code): code is string => !!code));
  // Starting writes the log's own start entry and then the originator's submit of the start node: one 发起 is shown.
  const shown = detail.comments.filter((c, i) => {
    const next = detail.comments[i + 1];
    return !(c.action === 'start' && !c.text && !c.signature && next && next.userId === c.userId && actionOf(next, startCodes) === 'start');
  });
  const items = shown.map((c) => ({
    key: c.commentId,
    color: AGREE.has(c.action) ? token.colorSuccess : DISAGREE.has(c.action) ? token.colorError : token.colorPrimary,
    children: (
      <Flex vertical gap={2} aria-label={t('formWorkflow.trace.entry')}>
        <Flex gap="small" wrap align="baseline">
          <Typography.Text strong>{name(c.userId)}</Typography.Text>
          <Tag style={{ marginInlineEnd: 0 }}>{t(`formWorkflow.trace.actions.${actionOf(c, startCodes)}`, { defaultValue: c.action })}</Tag>
          {c.activityCode && <Typography.Text type="secondary">{activityName.get(c.activityCode) ?? c.activityCode}</Typography.Text>}
        </Flex>
        {c.text && <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{c.text}</Typography.Paragraph>}
        {receiversOf(c).length > 0 && (
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
            {t('formWorkflow.trace.receivers', { names: receiversOf(c).map(name).join('、') })}
          </Typography.Text>
        )}
        {c.signature && <img src={c.signature} alt={t('formWorkflow.trace.signature')} style={{ maxWidth: 160, maxHeight: 60 }} />}
        <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
          {formatDateTime(c.createdTime)}
        </Typography.Text>
      </Flex>
    ),
  }));
  if (pending.length > 0) {
    items.push({
      key: 'pending',
      color: token.colorWarning,
      children: (
        <Typography.Text>
          {t('formWorkflow.trace.pending', { activity: pending[0].activityName, names: [...new Set(pending.map((i) => name(i.participant)))].join('、') })}
        </Typography.Text>
      ),
    });
  }
  return <Timeline items={items} style={{ paddingTop: token.paddingSM }} />;
}
