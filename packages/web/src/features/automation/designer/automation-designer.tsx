import { useEffect, useRef, useState } from 'react';
import { Alert, App, Button, Drawer, Flex, Form, Input, Radio, Space, Switch, Typography } from 'antd';
import { ExperimentOutlined, SaveOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getFieldIssues, isApiError } from '../../../lib/api-error.ts';
import { useIsPhone } from '../../../lib/use-is-phone.ts';
import { automationApi, automationKeys, type AutomationDto } from '../automation-api.ts';
import { TestRunModal } from '../test-run/test-run-modal.tsx';
import type { AutomationForm } from '../use-automation-form.ts';
import { useAdminAppCodes } from '../../apps/hooks/use-apps.ts';
import { ConditionCard } from './condition-card.tsx';
import { checkDraft, draftOf, isRecordless, newDraft, type AutomationDraft } from './draft.ts';
import { FlowArrow } from './flow-arrow.tsx';
import { StepList } from './step-list.tsx';
import { TriggerCard } from './trigger-card.tsx';

interface AutomationDesignerProps {
  form: AutomationForm;
  /** The automation being edited; undefined for a new one. */
  initial: AutomationDto | undefined;
  defaultName: string;
  onClose: () => void;
}

/** Builds one automation as a vertical flow (trigger → conditions → steps), saves it, and test-runs the unsaved copy. */
export function AutomationDesigner({ form, initial, defaultName, onClose }: AutomationDesignerProps) {
  const { t } = useTranslation();
  const { isAdministrator } = useAdminAppCodes();
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const isPhone = useIsPhone();
  const [saved, setSaved] = useState(initial);
  const [draft, setDraft] = useState<AutomationDraft>(() => (initial ? draftOf(initial) : newDraft(defaultName)));
  const [problems, setProblems] = useState<string[]>([]);
  const [isTesting, setTesting] = useState(false);
  // What was last saved (or opened): closing with anything else asks first (ui.md: destructive actions ask).
  const [clean, setClean] = useState(() => JSON.stringify(draft));
  const problemsRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (problems.length) problemsRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [problems]);
  const close = () => {
    if (JSON.stringify(draft) === clean) return onClose();
    modal.confirm({ title: t('automation.designer.discardTitle'), content: t('automation.designer.discardText'), okText: t('automation.designer.discard'), okButtonProps: { danger: true }, cancelText: t('automation.designer.keepEditing'), onOk: onClose });
  };
  const set = (patch: Partial<AutomationDraft>) => setDraft((d) => ({ ...d, ...patch }));

  // "动作 2 · 请设置字段映射": where a problem is, in the flow's words.
  const where = (path: readonly PropertyKey[]) => {
    const [head, index] = path;
    if (head === 'steps' && typeof index === 'number') return t('automation.designer.stepN', { n: index + 1 });
    if (head === 'trigger') return t('automation.designer.trigger');
    if (head === 'condition') return t('automation.designer.conditions');
    if (head === 'name') return t('automation.designer.name');
    return '';
  };
  const check = () => {
    const result = checkDraft(draft, where);
    setProblems(result.ok ? [] : result.problems);
    return result.ok ? result.automation : null;
  };
  const save = useMutation({
    mutationFn: () => {
      const automation = check();
      if (!automation) throw new Error('invalid');
      return automationApi.save({ schemaCode: form.schemaCode, automation });
    },
    onSuccess: ({ automation }) => {
      setSaved(automation);
      const next = { ...draft, id: automation.id };
      setDraft(next);
      setClean(JSON.stringify(next));
      void message.success(t('automation.designer.saved'));
      void client.invalidateQueries({ queryKey: automationKeys.list(form.schemaCode) });
    },
    onError: (error) => {
      if (!isApiError(error)) return;
      const issues = getFieldIssues(error);
      setProblems(issues.length ? issues.map((i) => `${where(i.path.split('.').slice(1).map((p) => (/^\d+$/.test(p) ? Number(p) : p)))} · ${i.message}`) : [error.errorMessage]);
    },
  });
  const recordless = isRecordless(draft.trigger.type);

  return (
    <Drawer
      open
      onClose={close}
      size={isPhone ? '100%' : 880}
      title={t(initial ? 'automation.designer.editTitle' : 'automation.designer.newTitle')}
      styles={{ body: { background: 'var(--ant-color-bg-layout)', padding: isPhone ? 12 : 24 } }}
      extra={
        <Space>
          <Button icon={<ExperimentOutlined />} onClick={() => check() && setTesting(true)}>{t('automation.designer.testRun')}</Button>
          <Button type="primary" icon={<SaveOutlined />} loading={save.isPending} onClick={() => save.mutate()}>{t('automation.designer.save')}</Button>
        </Space>
      }
    >
      <Flex vertical style={{ maxWidth: 760, margin: '0 auto' }}>
        {problems.length > 0 && (
          <div ref={problemsRef}>
            <Alert type="error" showIcon style={{ marginBottom: 12 }} title={t('automation.designer.invalid')}
              description={<ul style={{ margin: 0, paddingInlineStart: 18 }}>{problems.map((p) => <li key={p}>{p}</li>)}</ul>} />
          </div>
        )}
        <Form layout="vertical" component={false}>
          <Flex gap="middle" wrap align="flex-end">
            <Form.Item label={t('automation.designer.name')} htmlFor="automation-name" style={{ flex: '1 1 240px', marginBottom: 12 }}>
              <Input id="automation-name" maxLength={50} value={draft.name} onChange={(e) => set({ name: e.target.value })} />
            </Form.Item>
            <Form.Item label={t('automation.designer.enabled')} style={{ marginBottom: 12 }}>
              <Switch aria-label={t('automation.designer.enabled')} checked={draft.enabled} onChange={(enabled) => set({ enabled })} />
            </Form.Item>
          </Flex>
          <Form.Item label={t('automation.designer.runAs')} style={{ marginBottom: 16 }}>
            {/* Running as the system passes every permission: an engine administrator's to set (the server refuses others). */}
            <Radio.Group value={draft.runAs} onChange={(e) => set({ runAs: e.target.value })}
              options={[
                { value: 'owner', label: t('automation.designer.runAsOwner') },
                { value: 'system', label: t('automation.designer.runAsSystem'), disabled: !isAdministrator && draft.runAs !== 'system' },
              ]} />
            {!isAdministrator && <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>{t('automation.designer.runAsSystemAdminOnly')}</Typography.Text>}
          </Form.Item>
        </Form>
        <TriggerCard trigger={draft.trigger} form={form} saved={saved}
          onChange={(trigger) => set({ trigger, ...(isRecordless(trigger.type) ? { condition: null } : {}) })} />
        <FlowArrow />
        <ConditionCard key={recordless ? 'none' : 'rows'} condition={draft.condition} onChange={(condition) => set({ condition })} fields={form.viewFields} isRecordless={recordless} />
        <FlowArrow />
        <Typography.Title level={5} style={{ marginTop: 0 }}>{t('automation.designer.steps')}</Typography.Title>
        <StepList steps={draft.steps} form={form} onChange={(steps) => set({ steps })} />
      </Flex>
      {isTesting && <TestRunModal form={form} draft={draft} onClose={() => setTesting(false)} />}
    </Drawer>
  );
}
