import { useRef, useState, type Dispatch } from 'react';
import { App as AntApp } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { getFieldIssues, isApiError } from '../../../lib/api-error.ts';
import { confirmKey, formDesignApi, refusedChanges, staleVersion, type FormDesignPublishResult, type SchemaChange } from '../api/form-design-api.ts';
import { controlAtPath, draftProblems, parseIssuePath, type IssuePath } from '../state/draft-problems.ts';
import { isDirty, toDefinition, type DesignerAction, type DesignerState } from '../state/designer-state.ts';

export interface PendingPublish {
  version: number;
  /** The changes that lose data and need the person's word. */
  changes: SchemaChange[];
}

interface Options {
  schemaCode: string;
  state: DesignerState;
  dispatch: Dispatch<DesignerAction>;
  /** A problem in the form's attributes: the panel opens its 表单属性 tab. */
  onFormProblem: () => void;
  /** A control has a problem: the panel opens its 控件属性 tab. */
  onControlProblem: () => void;
  onSaved: () => void;
  onPublished: (result: FormDesignPublishResult) => void;
  /** Loads the server's draft again (after a stale save). */
  onReload: () => void;
}

const SHOWN_NAMES = 5;

/** What a publish changed, by the fields' names: "已发布。新增字段：金额、日期；删除字段：备注". */
function publishedText(t: TFunction, { summary }: Pick<FormDesignPublishResult, 'summary'>): string {
  const list = (names: string[]) => (names.length > SHOWN_NAMES ? t('formDesigner.publish.more', { names: names.slice(0, SHOWN_NAMES).join('、'), count: names.length }) : names.join('、'));
  const parts = (['added', 'removed', 'changed'] as const).filter((kind) => summary[kind].length > 0).map((kind) => t(`formDesigner.publish.${kind}`, { names: list(summary[kind]) }));
  return parts.length ? t('formDesigner.publish.done', { changes: parts.join('；') }) : t('formDesigner.publish.noChanges');
}

/** 保存 and 发布: checks, the stale-version explanation, and the confirmation of data-losing changes. */
export function useSavePublish({ schemaCode, state, dispatch, onFormProblem, onControlProblem, onSaved, onPublished, onReload }: Options) {
  const { t } = useTranslation();
  const { message, modal } = AntApp.useApp();
  const [isSaving, setSaving] = useState(false);
  const [isPublishing, setPublishing] = useState(false);
  const [pending, setPending] = useState<PendingPublish>();
  const stateRef = useRef(state);
  stateRef.current = state;

  /** Points the person at the first problem: the control it is about, or the form's attributes. */
  const showProblem = (path: IssuePath, text: string) => {
    const control = controlAtPath(stateRef.current.controls, path);
    if (control) {
      dispatch({ type: 'select', uid: control.uid });
      onControlProblem();
    } else if (path[0] === 'attributes') onFormProblem();
    void message.error({ content: text, key: 'designer-save' });
  };

  const explainStale = (currentVersion?: number) =>
    modal.confirm({
      title: t('formDesigner.save.staleTitle'),
      content: currentVersion === undefined ? t('formDesigner.save.staleUnknown') : t('formDesigner.save.stale', { version: currentVersion }),
      okText: t('formDesigner.save.reload'),
      cancelText: t('common.close'),
      onOk: onReload,
    });

  /** Saves the draft; the version saved, or undefined when it was not saved (the reason is shown). */
  const save = async (): Promise<number | undefined> => {
    const current = stateRef.current;
    const problems = draftProblems(current);
    if (problems.length > 0) {
      const [first] = problems;
      const onAttributes = first.path[0] === 'attributes';
      showProblem(first.path, onAttributes ? t('formDesigner.save.invalidForm') : t('formDesigner.save.invalid', { count: problems.length }));
      return undefined;
    }
    setSaving(true);
    try {
      const result = await formDesignApi.save({ schemaCode, baseVersion: current.version, definition: toDefinition(current) });
      dispatch({ type: 'saved', revision: current.revision, version: result.version });
      onSaved();
      return result.version;
    } catch (error) {
      const stale = staleVersion(error);
      const [issue] = getFieldIssues(error);
      if (stale) explainStale(stale.currentVersion);
      else if (issue) showProblem(parseIssuePath(issue.path), issue.message);
      else if (isApiError(error) && error.errorType === 'BIZ') void message.error(t('formDesigner.save.failed', { message: error.errorMessage }));
      return undefined;
    } finally {
      setSaving(false);
    }
  };

  const handleSave = async () => {
    if ((await save()) !== undefined) void message.success({ content: t('formDesigner.save.done'), key: 'designer-save' });
  };

  const sendPublish = async (version: number, confirm: string[]) => {
    setPublishing(true);
    try {
      const result = await formDesignApi.publish({ schemaCode, version, confirm });
      void message.success(publishedText(t, result));
      onPublished(result);
    } catch (error) {
      const changes = refusedChanges(error);
      const losing = changes?.filter((change) => change.needsConfirmation) ?? [];
      const stale = staleVersion(error);
      if (losing.length > 0) setPending({ version, changes: losing });
      else if (stale) explainStale(stale.currentVersion);
      else if (isApiError(error) && error.errorType === 'BIZ') void message.error(t('formDesigner.publish.failed', { message: error.errorMessage }));
    } finally {
      setPublishing(false);
    }
  };

  /** 发布: saves first when there is anything unsaved, then publishes that version. */
  const handlePublish = async () => {
    let version: number | undefined = stateRef.current.version;
    if (isDirty(stateRef.current) || version < 1) version = await save();
    if (version === undefined) return;
    await sendPublish(version, []);
  };

  /** The person agreed to lose the listed data: publish again naming exactly those changes. */
  const confirmPublish = async () => {
    if (!pending) return;
    setPending(undefined);
    await sendPublish(pending.version, pending.changes.map(confirmKey));
  };

  return { isSaving, isPublishing, pending, handleSave, handlePublish, confirmPublish, cancelPublish: () => setPending(undefined) };
}
