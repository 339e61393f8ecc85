import type { FormScene } from '@tritium/shared/constants/form';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { App, Button, Flex, Result, Skeleton, Tabs, Typography, theme } from 'antd';
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
import { useConfirmDiscard } from './use-confirm-discard.ts';
import { ActionButton, type FormAction } from './form-actions.tsx';
import { PhoneRecordActions } from './phone-action-bar.tsx';
import { PhoneRecordLayout, type SideTab } from './phone-record-layout.tsx';
import { FormScriptContext } from '../scripts/form-script-context.ts';
import { withOverlay } from '../scripts/script-form.ts';
import { collectFields } from '../model/runtime-tree.ts';
import { withRowKeys } from '../model/form-values.ts';
import { SmartFillButton } from '../../ai/smart-fill.tsx';
import { uploadFile } from '../api/upload.ts';
import { useBrowserScript } from '../scripts/use-browser-script.ts';

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
  /** Close the form (after removing, or on 关闭 once unsaved edits are given up). */
  onClose: () => void;
  /** Whether the form holds edits not saved yet, as it changes (the modal around it asks before closing on Esc or ✕). */
  onDirtyChange?: (dirty: boolean) => void;
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
export function RuntimeForm({ schemaCode, objectId, mode, device, onOpen, onClose, onDirtyChange, onPrint, page = false, initial, scene }: RuntimeFormProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const record = useRuntimeRecord(schemaCode, objectId, initial);
  const instanceId = objectId ? (record.data.data?.system.WorkflowInstanceId ?? null) : null;
  const workflow = useWorkflow(instanceId);
  const script = useBrowserScript(schemaCode, mode, record);
  const [busy, setBusy] = useState<DataAction | null>(null);
  const [revising, setRevising] = useState(false);
  const [sharing, setSharing] = useState(false);
  // A record in a flow is edited by the handler of its open item (the node's editable fields), and read by the others.
  const flowId = mode !== 'Print' ? instanceId : null;
  // Readonly (domain.md §2): the record is shown with no action but 关闭 and 打印 (docs/decisions/0115).
  const readonly = mode === 'Readonly';
  const formMode: FormMode = flowId && !readonly ? (workflow.handling || revising ? 'Edit' : 'View') : mode;
  const editing = isEditingMode(formMode);
  // A saved record opens again to be read, so only a form being edited has anything to lose.
  const unsaved = editing && record.dirty;
  useEffect(() => onDirtyChange?.(unsaved), [unsaved, onDirtyChange]);
  const confirmDiscard = useConfirmDiscard();
  const requestClose = () => confirmDiscard(unsaved, onClose);
  const failure = record.form.error ?? record.data.error;
  if (failure) {
    return <Result status="warning" title={isApiError(failure) ? failure.errorMessage : t('formRuntime.loadFailed')} extra={<Button onClick={onClose}>{t('common.close')}</Button>} />;
  }
  if (!record.form.data || !record.data.data || !record.values) return <Skeleton active style={{ padding: token.padding }} />;
  const { definition } = record.form.data;
  const data = record.data.data;
  const attributes = definition.attributes;
  // A form switched off on this device (pcVisible / mobileVisible) does not open here (docs/decisions/0115).
  if (mode !== 'Print' && (device === 'phone' ? attributes.mobileVisible : attributes.pcVisible) === false) {
    return <Result status="info" title={t(device === 'phone' ? 'formRuntime.hiddenOnPhone' : 'formRuntime.hiddenOnPc')} extra={<Button onClick={onClose}>{t('common.close')}</Button>} />;
  }
  // A submit rule that holds may hide the Submit buttons (docs/decisions/0016).
  const allowed = new Set(data.actions.filter((action) => !(record.hideSubmit && (action === 'Submit' || action === 'SubmitAndAdd'))));

  const run = async (action: DataAction) => {
    setBusy(action);
    try {
      // The form's browser script checks first (validate, beforeSubmit) and hears the outcome (afterSubmit).
      const verdict = await script.beforeAction(action);
      if (verdict.stop) {
        if (verdict.message) void message.error(verdict.message);
        return;
      }
      const outcome = await record.execute(action);
      if (!outcome.ok) {
        if (outcome.message) void message.error(outcome.message);
        return;
      }
      void message.success(t(`formRuntime.done.${action}`));
      await script.afterAction(action, outcome.objectId);
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
  // An effective record stays effective when saved: its Save is 保存, not 暂存 (keep as draft).
  const labelOf = (action: DataAction) => t(action === 'Save' && data.status === BizObjectStatus.Effective ? 'formRuntime.actions.SaveEffective' : `formRuntime.actions.${action}`);
  const dataAction = (action: DataAction, extra: Partial<FormAction> = {}): FormAction[] =>
    allowed.has(action) ? [{ key: action, label: labelOf(action), loading: busy === action, disabled: busy !== null && busy !== action, onPress: () => void run(action), ...extra }] : [];
  const printAction: FormAction[] = allowed.has('Print') && objectId && onPrint ? [{ key: 'print', label: t('formRuntime.actions.Print'), onPress: () => onPrint(objectId) }] : [];
  // Anyone who reads a saved record may share it read-only (issue 19, ExternalShare); the drawer is fetched on demand.
  const shareAction: FormAction[] = objectId && !editing ? [{ key: 'share', label: t('externalForm.share.button'), onPress: () => setSharing(true) }] : [];
  const closeAction: FormAction = { key: 'close', label: t('formRuntime.actions.Close'), main: true, onPress: requestClose };
  const actions: FormAction[] = readonly
    ? [...printAction, closeAction]
    : flowId
    ? [...printAction, ...shareAction, closeAction]
    : editing
    ? [
        ...dataAction('Save', { main: true }),
        ...(mode === 'Create' && allowed.has('Submit') && scene !== 'GanttCreateNode' ? dataAction('SubmitAndAdd') : []),
        ...dataAction('Submit', { primary: true }),
        {
          key: 'close',
          label: objectId ? t('formRuntime.actions.Cancel') : t('formRuntime.actions.Close'),
          main: true,
          onPress: () =>
            objectId
              ? confirmDiscard(unsaved, () => {
                  // The record is read again as saved, without the edits given up.
                  void record.reload();
                  onOpen(objectId, 'View');
                })
              : requestClose(),
        },
      ]
    : [
        ...dataAction('Remove', { danger: true, confirm: t('formRuntime.confirmRemove') }),
        ...dataAction('Copy'),
        ...printAction,
        ...shareAction,
        ...(allowed.has('Save') || allowed.has('Submit') ? [{ key: 'edit', label: t('formRuntime.actions.Edit'), primary: true, onPress: () => onOpen(objectId ?? null, 'Edit') }] : []),
        closeAction,
      ];
  // A flow's buttons come first; a phone draws them in its bar with the record's (its 更多 menu holds the rest).
  const workflowBar = (draw?: (flowActions: FormAction[]) => ReactNode) => flowId && !readonly && (
    <WorkflowBar
      key="workflow"
      instanceId={flowId}
      item={workflow.item}
      handling={workflow.handling}
      instanceActions={workflow.instanceActions}
      sendValues={record.sendValues}
      script={{ before: script.beforeAction, after: (action) => script.afterAction(action, objectId ?? null) }}
      onDone={() => void record.reload()}
      revising={revising}
      onRevise={(on) => {
        setRevising(on);
        // Leaving a revision without saving drops its edits.
        if (!on) void record.reload();
      }}
    >
      {draw}
    </WorkflowBar>
  );
  const smart = !flowId && !editing && !readonly && objectId ? { schemaCode, objectId, onDone: () => void record.reload() } : undefined;
  const phoneBar = (flowActions: FormAction[] = []) => <PhoneRecordActions actions={[...flowActions, ...actions]} smart={smart} />;
  const footer: ReactNode[] = [workflowBar(), ...actions.map((action) => <ActionButton key={action.key} action={action} />)];
  // The smart actions sit before 编辑 and 关闭.
  if (smart) footer.splice(1 + actions.findIndex((action) => action.primary || action.main), 0, <SmartActionButtons key="smart" schemaCode={schemaCode} location="form" objectIds={[smart.objectId]} onDone={smart.onDone} />);

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
    setValue: script.setValue,
    setRows: record.setRows,
    // A revision edits every field; a handler the fields its node allows; anyone else what their permission groups
    // allow (hidden fields are not sent at all, read-only ones are shown and not changed; docs/decisions/0037).
    // A browser script may hide and lock on top of them, never show or unlock what they hide or lock.
    permissionOf: withOverlay(revising ? undefined : (workflow.permissionOf ?? permissionOfRights(data.fieldRights)), script.overlay),
    fieldRights: revising || workflow.permissionOf ? undefined : data.fieldRights,
  };
  // 智能填单 sets what the model read (and the checks passed) as if typed; the person still checks and saves.
  const fieldLabel = (code: string) => {
    const { fields, grids } = collectFields(record.tree);
    return [...fields, ...grids.map((g) => g.control)].find((c) => c.code === code)?.label ?? code;
  };
  const applyExtraction = ({ values, children }: { values: Record<string, unknown>; children: Record<string, Record<string, unknown>[]> }) => {
    for (const [code, value] of Object.entries(values)) state.setValue(code, value);
    for (const [code, rows] of Object.entries(children)) state.setRows(code, () => withRowKeys(rows));
  };
  const sideWide = device === 'pc' && side.length > 0;
  const header = (
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
      {editing && mode !== 'Print' && <span style={{ flex: 1 }} />}
      {editing && mode !== 'Print' && <SmartFillButton schemaCode={schemaCode} labelOf={fieldLabel} apply={applyExtraction} upload={async (file) => (await uploadFile(file, 'ocrImage')).id} uploadPdf={async (file) => (await uploadFile(file, 'ocrAttachment')).id} />}
    </Flex>
  );
  return (
    <RuntimeFormContext.Provider value={state}>
      <FormScriptContext.Provider value={script.context}>
        <NamesProvider request={record.names}>
          {device === 'phone' ? (
            <PhoneRecordLayout
              header={header}
              record={
                <div role="form" aria-label={attributes.displayName} style={{ padding: token.padding }}>
                  <FormBody tree={record.tree} />
                </div>
              }
              side={side}
              bar={mode !== 'Print' && (workflowBar(phoneBar) || phoneBar())}
            />
          ) : (
            // In a modal the form fills it and its parts scroll; on a page it grows with its content and the page scrolls.
            <Flex vertical style={page ? undefined : { height: '100%', minHeight: 0 }}>
              {header}
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
          )}
          {sharing && objectId && (
            <Suspense fallback={null}>
              <ShareRecordModal schemaCode={schemaCode} objectId={objectId} open onClose={() => setSharing(false)} />
            </Suspense>
          )}
        </NamesProvider>
      </FormScriptContext.Provider>
    </RuntimeFormContext.Provider>
  );
}
