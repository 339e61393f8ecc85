import { Checkbox, Flex, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRoleList } from '../../../components/org-picker/index.ts';
import { item, type TriggerSettingsProps } from './trigger-settings.tsx';

/** A smart-action button: its label, where it shows, for which roles, a confirmation and a result message. */
export function ButtonSettings({ trigger, onChange }: TriggerSettingsProps<'button'>) {
  const { t } = useTranslation();
  const roles = useRoleList();
  return (
    <Flex vertical>
      <Flex gap="middle" wrap>
        <Form.Item label={t('automation.trigger.label')} htmlFor="trigger-label" {...item}>
          <Input id="trigger-label" maxLength={20} value={trigger.label} onChange={(e) => onChange({ ...trigger, label: e.target.value })} />
        </Form.Item>
        <Form.Item label={t('automation.trigger.locations')} {...item}>
          <Checkbox.Group value={trigger.locations} onChange={(locations) => onChange({ ...trigger, locations: locations as ('form' | 'list')[] })}
            options={[{ value: 'form', label: t('automation.trigger.locationForm') }, { value: 'list', label: t('automation.trigger.locationList') }]} />
        </Form.Item>
      </Flex>
      <Form.Item label={t('automation.trigger.roles')} htmlFor="trigger-roles" extra={t('automation.trigger.rolesHint')} style={{ marginBottom: 12 }}>
        <Select id="trigger-roles" mode="multiple" loading={roles.isLoading} showSearch optionFilterProp="label" value={trigger.roleIds ?? []}
          options={(roles.data?.list ?? []).map((r) => ({ value: r.id, label: r.groupName ? `${r.groupName} / ${r.name}` : r.name }))}
          onChange={(roleIds: string[]) => onChange({ ...trigger, roleIds })} />
      </Form.Item>
      <Flex gap="middle" wrap>
        <Form.Item label={t('automation.trigger.confirmText')} htmlFor="trigger-confirm" {...item}>
          <Input id="trigger-confirm" maxLength={200} value={trigger.confirmText ?? ''} onChange={(e) => onChange({ ...trigger, confirmText: e.target.value })} />
        </Form.Item>
        <Form.Item label={t('automation.trigger.resultMessage')} htmlFor="trigger-result" {...item}>
          <Input id="trigger-result" maxLength={200} value={trigger.resultMessage ?? ''} onChange={(e) => onChange({ ...trigger, resultMessage: e.target.value })} />
        </Form.Item>
      </Flex>
    </Flex>
  );
}
