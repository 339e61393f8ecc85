import { useState } from 'react';
import { Checkbox, Flex, Form, Select, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isEmailAddress, type Recipients } from '@tritium/shared/automation/index';
import { MAX_MESSAGE_RECIPIENTS } from '@tritium/shared/constants/limits';
import { OrgPickerField } from '../../../components/org-picker/index.ts';
import type { PickedUnit } from '../../../components/org-picker/index.ts';
import { apiClient } from '../../../lib/api-client.ts';
import type { ViewField } from '../automation-api.ts';

const PERSON_TYPES = ['user', 'users', 'unit', 'units'];

interface RecipientsInputProps {
  id: string;
  value: Recipients;
  onChange: (value: Recipients) => void;
  /** The form's fields: its person and department fields are offered. */
  viewFields: ViewField[];
  /** E-mail and SMS steps also reach fixed addresses (mailboxes, mobile numbers). */
  addresses: 'email' | 'sms' | null;
}

/** The names of saved user ids (the model keeps ids only). */
function useUserNames(ids: string[]) {
  return useQuery({
    queryKey: ['org', 'unit-names', ids],
    queryFn: () => apiClient.post<{ list: { id: string; name: string }[] }>('/v1/org/unit/batch', { ids }, { disableBizError: true }),
    enabled: ids.length > 0,
    staleTime: 60_000,
  });
}

/** Who a notification, e-mail or SMS reaches: the record's owner and creator, person fields, named users, fixed addresses. */
export function RecipientsInput({ id, value, onChange, viewFields, addresses }: RecipientsInputProps) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<Record<string, string>>({});
  const names = useUserNames(value.userIds);
  const nameOf = (userId: string) => picked[userId] ?? names.data?.list.find((u) => u.id === userId)?.name ?? userId;
  const set = (patch: Partial<Recipients>) => onChange({ ...value, ...patch });
  // The server refuses an e-mail step's addresses that are not mailboxes: said here first.
  const badAddresses = addresses === 'email' ? value.addresses.filter((a) => !isEmailAddress(a)) : [];
  const personFields = viewFields.filter((f) => PERSON_TYPES.includes(f.dataType) && f.controlType !== 'system');
  return (
    <Form.Item label={t('automation.step.recipients')} style={{ marginBottom: 12 }}>
      <Flex vertical gap="small">
        <Flex gap="middle" wrap>
          <Checkbox checked={value.owner} onChange={(e) => set({ owner: e.target.checked })}>{t('automation.step.owner')}</Checkbox>
          <Checkbox checked={value.creator} onChange={(e) => set({ creator: e.target.checked })}>{t('automation.step.creator')}</Checkbox>
        </Flex>
        <Select mode="multiple" aria-label={t('automation.step.userFields')} placeholder={t('automation.step.userFields')} value={value.fields}
          options={personFields.map((f) => ({ value: f.code, label: f.title }))} onChange={(fields: string[]) => set({ fields })} />
        <OrgPickerField id={`${id}-users`} kind="user" multiple aria-label={t('automation.step.users')} placeholder={t('automation.step.pickUsers')}
          value={value.userIds.map((userId) => ({ id: userId, name: nameOf(userId) }))}
          onChange={(units: PickedUnit[]) => {
            setPicked((known) => ({ ...known, ...Object.fromEntries(units.map((u) => [u.id, u.name])) }));
            set({ userIds: units.map((u) => u.id) });
          }} />
        {addresses && (
          <Select mode="tags" open={false} suffixIcon={null} aria-label={t('automation.step.addresses')} value={value.addresses} maxCount={MAX_MESSAGE_RECIPIENTS}
            status={badAddresses.length ? 'error' : undefined}
            placeholder={t(addresses === 'email' ? 'automation.step.addressesEmail' : 'automation.step.addressesSms')} onChange={(list: string[]) => set({ addresses: list })} />
        )}
        {addresses && <Typography.Text type="secondary">{t('automation.step.recipientsLimit', { max: MAX_MESSAGE_RECIPIENTS })}</Typography.Text>}
        {badAddresses.length > 0 && <Typography.Text type="danger" role="alert">{t('automation.step.badAddresses', { list: badAddresses.join('、') })}</Typography.Text>}
      </Flex>
    </Form.Item>
  );
}
