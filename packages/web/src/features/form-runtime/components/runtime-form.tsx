import type { FormScene } from '@tritium/shared/constants/form';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { App, Button, Flex, Popconfirm, Result, Skeleton, Tabs, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import { isApiError } from '../../../lib/api-error.ts';
import type { RuntimeAction } from '../api/runtime-api.ts';
import { isEditingMode, type Device, type FormMode } from '../fields/field-types.ts';
import { NamesProvider } from '../model/names.tsx';
import { useRuntimeRecord } from '../model/use-runtime-record.ts';
import { CommentsPanel } from '../side/comments-panel.tsx';
import { TaskTipsPanel } from '../side/task-tips-panel.tsx';
import { StatusTag } from '../fields/other-fields.tsx';
import { DataLogPanel } from './data-log-panel.tsx';
import { FormBody } from './form-body.tsx';
import { ApprovalTrace } from '../workflow/approval-trace.tsx';
import { useWorkflow } from '../workflow/use-workflow.ts';
import { WorkflowBar } from '../workflow/workflow-bar.tsx';
import { permissionOfRights, RuntimeFormContext } from './form-context.ts';
import { SmartActionButtons } from '../../smart-actions/smart-action-buttons.tsx';

const ShareRecordModal = lazy(() => import('../../record-share/share-record-modal.tsx').then((m) => ({ default: m.ShareRecordModal })));

// The flow chart draws with @xyflow/react (about 30 kB gzip): fetched when its side tab first opens (decisions/0036).
const FlowChart = lazy(() => import('../workflow/flow-chart.tsx').then((m) => ({ default: m.FlowChart })));

/** The actions the footer sends (Print opens the print page; Close needs no call). */
type DataAction = Exclude<RuntimeAction, 'Print' | 'Close'>;

export interface RuntimeFormProps {
  schemaCode: string;
  /** Absent: a new record (Create). */
  objectId?: string;
  mode: FormMode;
  device: Device;
  /** The record was saved or created: show it (View). */
  onOpen: (objectId: string | null, mode: FormMode) => void;
  /** Close the form (after removing, or on 关闭). */
  onClose: () => void;
  /** Open the print page of the record. */
  onPrint?: (objectId: string) => void;
  /** The form is a page of its own (it grows and the page scrolls), not the content of a modal or drawer. */
  page?: boolean;
  /** A new record's starting values over the form's defaults (OpenForm.initial). */
  initial?: Record<string, unknown>;
  /** The form scene (domain.md §2): GanttCreateNode creates a task from a Gantt chart and closes once saved. */
  scene?: FormScene;
}

/** An open form: header (title, status), the controls in the mode, the buttons this person may press, the side panel. */
export function RuntimeForm({ schemaCode, objectId, mode, device, onOpen, onClose, onPrint, page = false, initial, scene }: RuntimeFormProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const record = useRuntimeRecord(schemaCode, objectId, initial);
  const instanceId = objectId ? (record.data.data?.system.WorkflowInstanceId ?? null) : null;
  const workflow = useWorkflow(instanceId);
  const [busy, setBusy] = useState<DataAction | null>(null);
  const [revising, setRevising] = useState(false);
  const [sharing, setSharing] = useState(false);
  const failure = record.form.error ?? record.data.error;
  if (failure) {
    return <Result status="warning" title={isApiError(failure) ? failure.errorMessage : t('formRuntime.loadFailed')} extra={<Button onClick={onClose}>{t('common.close')}</Button>} />;
  }
  if (!record.form.data || !record.data.data || !record.values) return <Skeleton active style={{ padding: token.padding }} />;
  const { definition } = record.form.data;
  const data = record.data.data;
  const attributes = definition.attributes;
  // A submit rule that holds may hide the Submit buttons (docs/decisions/0016).
  const allowed = new Set(data.actions.filter((action) => !(record.hideSubmit && (action === 'Submit' || action === 'SubmitAndAdd'))));
  // A record in a flow is edited by the handler of its open item (the node's editable fields), and read by the others.
  const flowId = mode !== 'Print' ? instanceId : null;
  const formMode: FormMode = flowId ? (workflow.handling || revising ? 'Edit' : 'View') : mode;
  const editing = isEditingMode(formMode);

  const run = async (action: DataAction) => {
    setBusy(action);
    try {
      const outcome = await record.execute(action);
      if (!outcome.ok) {
        if (outcome.message) void message.error(outcome.message);
        return;
      }
      void message.success(t(`formRuntime.done.${action}`));
      // A task created from the chart goes back to the chart, which shows it in its place.
      if (action === 'Remove' || scene === 'GanttCreateNode') onClose();
      else if (action === 'SubmitAndAdd') {
        onOpen(null, 'Create');
        await record.reload();
      } else onOpen(outcome.objectId, 'View');
    } finally {
      setBusy(null);
    }
  };
  const button = (action: DataAction, primary = false) =>
    allowed.has(action) && (
      <Button key={action} type={primary ? 'primary' : 'default'} loading={busy === action} disabled={busy !== null && busy !== action} onClick={() => void run(action)}>
        {/* An effective record stays effective when saved: its Save is 保存, not 暂存 (keep as draft). */}
        {t(action === 'Save' && data.status === BizObjectStatus.Effective ? 'formRuntime.actions.SaveEffective' : `formRuntime.actions.${action}`)}
      </Button>
    );
  const printButton = allowed.has('Print') && objectId && onPrint && (
    <Button key="print" onClick={() => onPrint(objectId)}>
      {t('formRuntime.actions.Print')}
    </Button>
  );
  // Anyone who reads a saved record may share it read-only (issue 19, ExternalShare); the drawer is fetched on demand.
  const shareButton = objectId && !editing && (
    <Button key="share" onClick={() => setSharing(true)}>
      {t('externalForm.share.button')}
    </Button>
  );
  const closeButton = (
    <Button key="close" onClick={onClose}>
      {t('formRuntime.actions.Close')}
    </Button>
  );
  const footer: ReactNode[] = flowId
    ? [
        <WorkflowBar
          key="workflow"
          instanceId={flowId}
          item={workflow.item}
          handling={workflow.handling}
          instanceActions={workflow.instanceActions}
          sendValues={record.sendValues}
          onDone={() => void record.reload()}
          revising={revising}
          onRevise={(on) => {
            setRevising(on);
            // Leaving a revision without saving drops its edits.
            if (!on) void record.reload();
          }}
        />,
        printButton,
        shareButton,
        closeButton,
      ]
    : editing
    ? [
        button('Save'),
        mode === 'Create' && allowed.has('Submit') && scene !== 'GanttCreateNode' && button('SubmitAndAdd'),
        button('Submit', true),
        <Button key="close" onClick={() => (objectId ? onOpen(objectId, 'View') : onClose())}>
          {objectId ? t('formRuntime.actions.Cancel') : t('formRuntime.actions.Close')}
        </Button>,
      ]
    : [
        allowed.has('Remove') && (
          <Popconfirm key="remove" title={t('formRuntime.confirmRemove')} okText={t('formRuntime.actions.Remove')} cancelText={t('common.cancel')} onConfirm={() => void run('Remove')}>
            <Button danger loading={busy === 'Remove'}>
              {t('formRuntime.actions.Remove')}
            </Button>
          </Popconfirm>
        ),
        button('Copy'),
        printButton,
        shareButton,
        objectId && <SmartActionButtons key="smart" schemaCode={schemaCode} location="form" objectIds={[objectId]} onDone={() => void record.reload()} />,
        (allowed.has('Save') || allowed.has('Submit')) && (
          <Button key="edit" type="primary" onClick={() => onOpen(objectId ?? null, 'Edit')}>
            {t('formRuntime.actions.Edit')}
          </Button>
        ),
        closeButton,
      ];

  type SideTab = { key: string; label: string; children: ReactNode };
  const sideTabs: (SideTab | false)[] = !objectId || mode === 'Print' ? [] : [
    !!flowId && { key: 'trace', label: t('formWorkflow.side.trace'), children: <ApprovalTrace instanceId={flowId} /> },
    !!flowId && { key: 'chart', label: t('formWorkflow.side.chart'), children: <Suspense fallback={<Skeleton active />}><FlowChart instanceId={flowId} /></Suspense> },
    attributes.enableDataLog && { key: 'log', label: t('formRuntime.side.dataLog'), children: <DataLogPanel schemaCode={schemaCode} objectId={objectId} tree={record.tree} /> },
    attributes.enableFormSNS && { key: 'sns', label: t('formRuntime.side.comments'), children: <CommentsPanel schemaCode={schemaCode} objectId={objectId} /> },
    attributes.enableTask && { key: 'task', label: t('formRuntime.side.taskTips'), children: <TaskTipsPanel schemaCode={schemaCode} objectId={objectId} /> },
  ];
  const side = sideTabs.filter((item): item is SideTab => !!item);

  const state = {
    schemaCode,
    mode: formMode,
    device,
    titleWidth: attributes.titleWidth,
    form: record.values,
    system: data.system as Record<string, unknown>,
    errors: record.errors,
    setValue: record.setValue,
    setRows: record.setRows,
    // A revision edits every field; a handler the fields its node allows; anyone else what their permission groups
    // allow (hidden fields are not sent at all, read-only ones are shown and not changed; docs/decisions/0037).
    permissionOf: revising ? undefined : (workflow.permissionOf ?? permissionOfRights(data.fieldRights)),
    fieldRights: revising || workflow.permissionOf ? undefined : data.fieldRights,
  };
  const sideWide = device === 'pc' && side.length > 0;
  return (
    <RuntimeFormContext.Provider value={state}>
      <NamesProvider request={record.names}>
        {/* In a modal the form fills it and its parts scroll; on a page it grows with its content and the page scrolls. */}
        <Flex vertical style={page ? undefined : { height: '100%', minHeight: 0 }}>
          <Flex align="center" gap="small" style={{ padding: `${token.paddingSM}px ${token.padding}px`, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
            <Typography.Title level={4} style={{ margin: 0 }} ellipsis>
              {attributes.displayName}
            </Typography.Title>
            {scene === 'GanttCreateNode' && data.isNew && <Typography.Text type="secondary">{t('viewModes.gantt.createNode')}</Typography.Text>}
            {!data.isNew && <StatusTag status={data.status} />}
            {!data.isNew && data.system.Name && (
              <Typography.Text type="secondary" ellipsis>
                {data.system.Name}
              </Typography.Text>
            )}
          </Flex>
          <Flex style={page ? { flex: 1 } : { flex: 1, minHeight: 0 }} vertical={!sideWide}>
            <div role="form" aria-label={attributes.displayName} style={{ flex: 1, minWidth: 0, overflow: page ? undefined : 'auto', padding: token.padding }}>
              <FormBody tree={record.tree} />
            </div>
            {side.length > 0 && (
              <div style={{ width: sideWide ? 340 : undefined, flexShrink: 0, overflow: page ? undefined : 'auto', padding: `0 ${token.padding}px`, borderInlineStart: sideWide ? `1px solid ${token.colorBorderSecondary}` : undefined, borderTop: sideWide ? undefined : `1px solid ${token.colorBorderSecondary}` }}>
                <Tabs items={side} />
              </div>
            )}
          </Flex>
          {mode !== 'Print' && (
            <Flex
              justify="flex-end"
              gap="small"
              wrap
              // On a page of its own the buttons stay in reach at the bottom of the window.
              style={{ position: 'sticky', bottom: 0, background: token.colorBgContainer, padding: `${token.paddingSM}px ${token.padding}px`, borderTop: `1px solid ${token.colorBorderSecondary}` }}
            >
              {footer}
            </Flex>
          )}
        </Flex>
        {sharing && objectId && (
          <Suspense fallback={null}>
            <ShareRecordModal schemaCode={schemaCode} objectId={objectId} open onClose={() => setSharing(false)} />
          </Suspense>
        )}
      </NamesProvider>
    </RuntimeFormContext.Provider>
  );
}
