import { useState } from 'react';
import { Flex, Select, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DELIVERY_STATES, OUTSIDE_CHANNELS, type DeliveryState, type OutsideChannel } from '@tritium/shared/constants/messages';
import { useDeliveries, type DeliveryDto } from './message-api.ts';
import { formatDateTimeSeconds } from '../../lib/date-format.ts';

const STATE_COLORS: Record<DeliveryState, string> = { Waiting: 'default', Retrying: 'orange', Succeeded: 'green', Failed: 'red' };
const PAGE_SIZE = 20;

/** The administrator's delivery log: every message sent over e-mail, SMS or a robot, with its attempts and outcome. */
export function DeliveryLog() {
  const { t } = useTranslation();
  const [state, setState] = useState<DeliveryState | undefined>();
  const [channel, setChannel] = useState<OutsideChannel | undefined>();
  const [page, setPage] = useState(0);
  const log = useDeliveries({ pageIndex: page, pageSize: PAGE_SIZE, state, channel });
  return (
    <Flex vertical gap="middle">
      <Flex gap="middle" wrap>
        <Select<DeliveryState | 'all'>
          aria-label={t('messageCenter.deliveries.state')}
          style={{ width: 160 }}
          value={state ?? 'all'}
          onChange={(v) => {
            setState(v === 'all' ? undefined : v);
            setPage(0);
          }}
          options={[{ value: 'all', label: t('messageCenter.deliveries.allStates') }, ...DELIVERY_STATES.map((s) => ({ value: s, label: t(`messageCenter.deliveries.states.${s}`) }))]}
        />
        <Select<OutsideChannel | 'all'>
          aria-label={t('messageCenter.deliveries.channel')}
          style={{ width: 160 }}
          value={channel ?? 'all'}
          onChange={(v) => {
            setChannel(v === 'all' ? undefined : v);
            setPage(0);
          }}
          options={[{ value: 'all', label: t('messageCenter.deliveries.allChannels') }, ...OUTSIDE_CHANNELS.map((c) => ({ value: c, label: t(`messageCenter.preferences.channels.${c}`) }))]}
        />
      </Flex>
      <Table<DeliveryDto>
        size="small"
        rowKey="deliveryId"
        loading={log.isLoading}
        dataSource={log.data?.list ?? []}
        pagination={{ current: page + 1, pageSize: PAGE_SIZE, total: log.data?.total ?? 0, showSizeChanger: false, onChange: (p) => setPage(p - 1) }}
        columns={[
          { title: t('messageCenter.deliveries.time'), dataIndex: 'createdTime', width: 150, render: (v: string) => formatDateTimeSeconds(v) },
          { title: t('messageCenter.deliveries.receiver'), dataIndex: 'receiverName', width: 110 },
          { title: t('messageCenter.deliveries.title'), dataIndex: 'title', ellipsis: true },
          { title: t('messageCenter.deliveries.channel'), dataIndex: 'channel', width: 90, render: (c: OutsideChannel) => t(`messageCenter.preferences.channels.${c}`) },
          {
            title: t('messageCenter.deliveries.state'),
            dataIndex: 'state',
            width: 110,
            render: (s: DeliveryState, row) => (
              <Tag color={STATE_COLORS[s]}>
                {t(`messageCenter.deliveries.states.${s}`)}
                {row.attempts > 1 ? ` ×${row.attempts}` : ''}
              </Tag>
            ),
          },
          { title: t('messageCenter.deliveries.detail'), dataIndex: 'detail', ellipsis: true, render: (d: string | null) => <Typography.Text type="secondary">{d ?? ''}</Typography.Text> },
        ]}
      />
    </Flex>
  );
}
