import { Button, Card, Dropdown, Flex, InputNumber, Radio, Select, Typography, theme } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ParticipantRule, ParticipantSource } from '@tritium/shared/workflow/index';
import { MultiDepartmentPicker, MultiUserPicker, useRoleList } from '../../../components/org-picker/index.ts';
import { workflowDesignApi, workflowDesignKeys } from '../api/workflow-design-api.ts';
import { PEOPLE_FIELD_TYPES, useDesignContext } from '../model/design-context.ts';

const SOURCE_TYPES = ['users', 'roles', 'departments', 'originator', 'originatorManager', 'field'] as const;
type SourceType = (typeof SOURCE_TYPES)[number];

function newSource(type: SourceType, firstField?: string): ParticipantSource {
  switch (type) {
    case 'users':
    case 'roles':
      return { type, ids: [] };
    case 'departments':
      return { type, ids: [], pick: 'members' };
    case 'originator':
      return { type };
    case 'originatorManager':
      return { type, levels: 1 };
    case 'field':
      return { type, code: firstField ?? '', pick: 'members' };
  }
}

function SourceConfig({ source, onChange }: { source: ParticipantSource; onChange: (s: ParticipantSource) => void }) {
  const { t } = useTranslation();
  const { fields, names, remember } = useDesignContext();
  const roles = useRoleList(source.type === 'roles');
  const units = (ids: string[]) => ids.map((id) => ({ id, name: names[id] ?? id }));
  const pickSelect = (value: 'members' | 'manager', set: (pick: 'members' | 'manager') => void) => (
    <Select
      size="small"
      value={value}
      onChange={set}
      aria-label={t('workflowDesigner.participants.pick')}
      options={(['members', 'manager'] as const).map((p) => ({ value: p, label: t(`workflowDesigner.participants.picks.${p}`) }))}
      style={{ width: 120 }}
    />
  );
  switch (source.type) {
    case 'users':
      return (
        <MultiUserPicker
          aria-label={t('workflowDesigner.participants.chooseUsers')}
          value={units(source.ids)}
          onChange={(picked) => {
            remember(picked);
            onChange({ ...source, ids: picked.map((u) => u.id) });
          }}
        />
      );
    case 'roles':
      return (
        <Select
          mode="multiple"
          size="small"
          style={{ width: '100%' }}
          aria-label={t('workflowDesigner.participants.chooseRoles')}
          placeholder={t('workflowDesigner.participants.chooseRoles')}
          loading={roles.isLoading}
          value={source.ids}
          onChange={(ids: string[]) => onChange({ ...source, ids })}
          optionFilterProp="label"
          options={(roles.data?.list ?? []).map((r) => ({ value: r.id, label: r.groupName ? `${r.groupName} / ${r.name}` : r.name }))}
        />
      );
    case 'departments':
      return (
        <Flex vertical gap={4}>
          <MultiDepartmentPicker
            aria-label={t('workflowDesigner.participants.chooseDepartments')}
            value={units(source.ids)}
            onChange={(picked) => {
              remember(picked);
              onChange({ ...source, ids: picked.map((u) => u.id) });
            }}
          />
          {pickSelect(source.pick, (pick) => onChange({ ...source, pick }))}
        </Flex>
      );
    case 'originator':
      return <Typography.Text type="secondary">{t('workflowDesigner.participants.originatorHint')}</Typography.Text>;
    case 'originatorManager':
      return (
        <Flex align="center" gap="small">
          <Typography.Text>{t('workflowDesigner.participants.levelsBefore')}</Typography.Text>
          <InputNumber size="small" min={1} max={10} precision={0} value={source.levels} aria-label={t('workflowDesigner.participants.levels')} onChange={(v) => onChange({ ...source, levels: v ?? 1 })} />
          <Typography.Text>{t('workflowDesigner.participants.levelsAfter')}</Typography.Text>
        </Flex>
      );
    case 'field': {
      const candidates = fields.filter((f) => PEOPLE_FIELD_TYPES.includes(f.typeKey));
      const chosen = candidates.find((f) => f.code === source.code);
      return (
        <Flex vertical gap={4}>
          <Select
            size="small"
            value={source.code || undefined}
            placeholder={candidates.length ? t('workflowDesigner.participants.chooseField') : t('workflowDesigner.participants.noPeopleField')}
            aria-label={t('workflowDesigner.participants.chooseField')}
            onChange={(code: string) => onChange({ ...source, code })}
            options={candidates.map((f) => ({ value: f.code, label: f.name }))}
          />
          {chosen && chosen.typeKey.toLowerCase().includes('department') && pickSelect(source.pick, (pick) => onChange({ ...source, pick }))}
        </Flex>
      );
    }
  }
}

/** The node's participant rule: its sources (each with a real picker) and what happens when nobody is found. */
export function ParticipantsEditor({ rule, onChange, showWhenEmpty = true }: { rule: ParticipantRule; onChange: (rule: ParticipantRule) => void; showWhenEmpty?: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { fields } = useDesignContext();
  const firstPeopleField = fields.find((f) => PEOPLE_FIELD_TYPES.includes(f.typeKey))?.code;
  const setSource = (i: number, s: ParticipantSource) => onChange({ ...rule, sources: rule.sources.map((x, j) => (j === i ? s : x)) });
  return (
    <Flex vertical gap="small">
      {rule.sources.map((source, i) => (
        <Card
          key={i}
          size="small"
          styles={{ body: { padding: token.paddingXS } }}
          title={<Typography.Text style={{ fontSize: token.fontSizeSM }}>{t(`workflowDesigner.participants.types.${source.type}`)}</Typography.Text>}
          extra={
            <Button
              type="text"
              size="small"
              icon={<DeleteOutlined />}
              aria-label={t('workflowDesigner.participants.remove', { type: t(`workflowDesigner.participants.types.${source.type}`) })}
              onClick={() => onChange({ ...rule, sources: rule.sources.filter((_, j) => j !== i) })}
            />
          }
        >
          <SourceConfig source={source} onChange={(s) => setSource(i, s)} />
        </Card>
      ))}
      <Dropdown
        trigger={['click']}
        menu={{
          items: SOURCE_TYPES.map((type) => ({ key: type, label: t(`workflowDesigner.participants.types.${type}`) })),
          onClick: ({ key }) => onChange({ ...rule, sources: [...rule.sources, newSource(key as SourceType, firstPeopleField)] }),
        }}
      >
        <Button size="small" icon={<PlusOutlined />}>
          {t('workflowDesigner.participants.add')}
        </Button>
      </Dropdown>
      {showWhenEmpty && (
        <Flex vertical gap={4}>
          <Typography.Text type="secondary">{t('workflowDesigner.participants.whenEmpty')}</Typography.Text>
          <Radio.Group
            size="small"
            value={rule.whenEmpty}
            onChange={(e) => onChange({ ...rule, whenEmpty: e.target.value })}
            options={(['administrator', 'autoPass'] as const).map((v) => ({ value: v, label: t(`workflowDesigner.participants.whenEmptyOptions.${v}`) }))}
          />
        </Flex>
      )}
    </Flex>
  );
}
