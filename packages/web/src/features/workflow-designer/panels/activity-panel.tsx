import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Divider, Flex, Input, Popconfirm, Radio, Select, Typography, theme } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { HAND_SIGN_MODES, PERMITTED_ACTIONS, type HandSignMode, type PermittedAction } from '@tritium/shared/workflow/index';
import { connect, connectProblem, removeActivity, updateActivity, type Activity, type Template, type TemplateIssue } from '../model/template-model.ts';
import { DisapproveTargetSelect, ExitSettings } from './exit-rules.tsx';
import { ChildFlowSettings } from './child-flow-settings.tsx';
import { TimeLimitSettings } from './time-limit-settings.tsx';
import { FieldPermissionsTable } from './field-permissions.tsx';
import { ParticipantsEditor } from './participants-editor.tsx';

/** Actions a node may permit: the originator's on Start; add signers on approve nodes only (h3yun-facts §2.13). */
function actionsFor(type: Activity['type']): readonly PermittedAction[] {
  if (type === 'Start') return ['retrieve', 'cancel', 'circulate'];
  if (type === 'Fill') return PERMITTED_ACTIONS.filter((a) => a !== 'addSigner');
  return PERMITTED_ACTIONS;
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section aria-label={title}>
      <Divider titlePlacement="start" plain style={{ margin: '12px 0 8px' }}>
        {title}
      </Divider>
      {children}
    </section>
  );
}

interface Props {
  activity: Activity;
  template: Template;
  issues: TemplateIssue[];
  edit: (change: (t: Template) => Template) => void;
  onRemoved: () => void;
}

/** The selected node's properties: name, participants, exits, disapprove target, actions, field permissions, routes. */
export function ActivityPanel({ activity, template, issues, edit, onRemoved }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [name, setName] = useState(activity.name);
  const [target, setTarget] = useState<string>();
  useEffect(() => setName(activity.name), [activity.name]);
  const patch = (p: Partial<Activity>) => edit((tpl) => updateActivity(tpl, activity.code, p));
  const participative = activity.type === 'Fill' || activity.type === 'Approve';
  const targets = template.activities.filter((a) => !connectProblem(template, activity.code, a.code));
  const outs = template.routes.filter((r) => r.from === activity.code);
  const nameOf = (code: string) => template.activities.find((a) => a.code === code)?.name ?? code;

  return (
    <Flex vertical style={{ padding: token.padding }} aria-label={t('workflowDesigner.panel.activity')} role="form">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t(`workflowDesigner.types.${activity.type}`)}
      </Typography.Title>
      {issues.length > 0 && <Alert type="error" showIcon style={{ marginBottom: token.marginSM }} title={issues.map((i) => <div key={i.rule + i.message}>{i.message}</div>)} />}
      <Flex vertical gap={4}>
        <Typography.Text type="secondary">{t('workflowDesigner.panel.name')}</Typography.Text>
        <Input
          aria-label={t('workflowDesigner.panel.name')}
          value={name}
          maxLength={50}
          status={name.trim() ? undefined : 'error'}
          onChange={(e) => {
            setName(e.target.value);
            if (e.target.value.trim()) patch({ name: e.target.value.trim() });
          }}
          onBlur={() => setName(activity.name)}
        />
        <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
          {t('workflowDesigner.panel.code', { code: activity.code })}
        </Typography.Text>
      </Flex>

      {(participative || activity.type === 'Circulate') && (
        <Section title={t('workflowDesigner.panel.participants')}>
          <ParticipantsEditor rule={activity.participants} showWhenEmpty={participative} onChange={(participants) => patch({ participants })} />
        </Section>
      )}
      {participative && (
        <Section title={t('workflowDesigner.panel.exits')}>
          <ExitSettings activity={activity} onChange={patch} />
          {activity.type === 'Approve' && (
            <Flex vertical gap={4} style={{ marginTop: token.marginXS }}>
              <Typography.Text type="secondary">{t('workflowDesigner.exit.target')}</Typography.Text>
              <DisapproveTargetSelect value={activity.disapproveTarget} self={activity.code} activities={template.activities} onChange={(disapproveTarget) => patch({ disapproveTarget })} />
            </Flex>
          )}
        </Section>
      )}
      {participative && (
        <Section title={t('workflowDesigner.timeLimit.title')}>
          <TimeLimitSettings activity={activity} onChange={patch} />
        </Section>
      )}
      {activity.type === 'ChildInstance' && (
        <Section title={t('workflowDesigner.panel.child')}>
          <ChildFlowSettings activity={activity} onChange={patch} />
        </Section>
      )}
      {participative && (
        <Section title={t('workflowDesigner.handSign.title')}>
          <Radio.Group
            aria-label={t('workflowDesigner.handSign.title')}
            value={activity.handSign}
            onChange={(e) => patch({ handSign: e.target.value as HandSignMode })}
            options={HAND_SIGN_MODES.map((mode) => ({ value: mode, label: t(`workflowDesigner.handSign.${mode}`) }))}
          />
        </Section>
      )}
      {(participative || activity.type === 'Start') && (
        <>
          <Section title={t('workflowDesigner.panel.actions')}>
            <Checkbox.Group
              value={activity.permittedActions}
              onChange={(v) => patch({ permittedActions: v as PermittedAction[] })}
              options={actionsFor(activity.type).map((a) => ({ value: a, label: t(`workflowDesigner.actions.${a}`) }))}
            />
          </Section>
          <Section title={t('workflowDesigner.permissions.title')}>
            <FieldPermissionsTable value={activity.fieldPermissions} onChange={(fieldPermissions) => patch({ fieldPermissions })} />
          </Section>
        </>
      )}
      {activity.type !== 'End' && (
        <Section title={t('workflowDesigner.panel.routes')}>
          <Flex vertical gap={4}>
            {outs.map((r) => (
              <Typography.Text key={r.to}>→ {nameOf(r.to)}</Typography.Text>
            ))}
            <Flex gap="small">
              <Select
                size="small"
                style={{ flex: 1 }}
                aria-label={t('workflowDesigner.panel.connectTo')}
                placeholder={t('workflowDesigner.panel.connectTo')}
                value={target}
                onChange={setTarget}
                options={targets.map((a) => ({ value: a.code, label: a.name }))}
              />
              <Button
                size="small"
                disabled={!target}
                onClick={() => {
                  if (target) edit((tpl) => connect(tpl, activity.code, target));
                  setTarget(undefined);
                }}
              >
                {t('workflowDesigner.panel.connect')}
              </Button>
            </Flex>
          </Flex>
        </Section>
      )}
      {activity.type !== 'Start' && (
        <Popconfirm title={t('workflowDesigner.panel.removeConfirm', { name: activity.name })} onConfirm={() => (edit((tpl) => removeActivity(tpl, activity.code)), onRemoved())}>
          <Button danger icon={<DeleteOutlined />} style={{ marginTop: token.marginLG }}>
            {t('workflowDesigner.panel.remove')}
          </Button>
        </Popconfirm>
      )}
    </Flex>
  );
}
