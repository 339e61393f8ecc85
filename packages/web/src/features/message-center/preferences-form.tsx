import { useEffect, useState } from 'react';
import { App, Button, Checkbox, Flex, Skeleton, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MESSAGE_CATEGORIES, type MessageCategory, type OutsideChannel } from '@tritium/shared/constants/messages';
import { usePreferences, useSavePreferences, type CategoryChannels } from './message-api.ts';

type Choice = Record<MessageCategory, OutsideChannel[]>;

/**
 * Which outside channels carry each category of message (in-app always does). `engine`: the organisation's defaults
 * (administrators; robots only here); otherwise the caller's own, starting from the defaults.
 */
export function PreferencesForm({ engine = false }: { engine?: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const prefs = usePreferences();
  const save = useSavePreferences();
  const [choice, setChoice] = useState<Choice | undefined>();
  useEffect(() => {
    if (!prefs.data) return;
    const of = (list: CategoryChannels[], c: MessageCategory) => list.find((p) => p.category === c)?.channels;
    setChoice(Object.fromEntries(MESSAGE_CATEGORIES.map((c) => [c, (engine ? undefined : of(prefs.data.mine, c)) ?? of(prefs.data.defaults, c) ?? []])) as Choice);
  }, [prefs.data, engine]);
  if (!choice) return <Skeleton active paragraph={{ rows: 6 }} />;
  const channels: OutsideChannel[] = engine ? ['email', 'sms', 'chatApp', 'robot'] : ['email', 'sms', 'chatApp'];
  const toggle = (category: MessageCategory, channel: OutsideChannel, on: boolean) =>
    setChoice({ ...choice, [category]: on ? [...choice[category], channel] : choice[category].filter((c) => c !== channel) });
  return (
    <Flex vertical gap="middle">
      <Typography.Text type="secondary">{t(engine ? 'messageCenter.preferences.engineHint' : 'messageCenter.preferences.mineHint')}</Typography.Text>
      <Table<{ category: MessageCategory }>
        size="small"
        pagination={false}
        rowKey="category"
        dataSource={MESSAGE_CATEGORIES.map((category) => ({ category }))}
        columns={[
          { title: t('messageCenter.preferences.category'), dataIndex: 'category', render: (c: MessageCategory) => t(`messageCenter.categories.${c}`) },
          { title: t('messageCenter.preferences.inApp'), key: 'inapp', align: 'center', render: () => <Checkbox checked disabled aria-label={t('messageCenter.preferences.inApp')} /> },
          ...channels.map((channel) => ({
            title: t(`messageCenter.preferences.channels.${channel}`),
            key: channel,
            align: 'center' as const,
            render: (_: unknown, row: { category: MessageCategory }) => (
              <Checkbox
                aria-label={`${t(`messageCenter.categories.${row.category}`)} ${t(`messageCenter.preferences.channels.${channel}`)}`}
                checked={choice[row.category].includes(channel)}
                onChange={(e) => toggle(row.category, channel, e.target.checked)}
              />
            ),
          })),
        ]}
      />
      <Flex justify="end">
        <Button
          type="primary"
          loading={save.isPending}
          onClick={() =>
            save.mutate(
              { preferences: MESSAGE_CATEGORIES.map((category) => ({ category, channels: choice[category] })), ...(engine ? { engineDefaults: true } : {}) },
              { onSuccess: () => void message.success(t('messageCenter.preferences.saved')) },
            )
          }
        >
          {t('messageCenter.preferences.save')}
        </Button>
      </Flex>
    </Flex>
  );
}
