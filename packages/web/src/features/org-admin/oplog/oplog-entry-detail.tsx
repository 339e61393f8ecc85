import { Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OplogEntry } from './oplog-api.ts';

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** One entry opened: the values before and after (secrets already masked by the server), the request and address. */
export function OplogEntryDetail({ entry }: { entry: OplogEntry }) {
  const { t } = useTranslation();
  const value = (v: unknown) =>
    v === null || v === undefined ? (
      <Typography.Text type="secondary">{t('oplog.detail.none')}</Typography.Text>
    ) : (
      <pre style={{ margin: 0, maxHeight: 240, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{json(v)}</pre>
    );
  return (
    <Descriptions size="small" column={2} bordered>
      <Descriptions.Item label={t('oplog.detail.before')}>{value(entry.before)}</Descriptions.Item>
      <Descriptions.Item label={t('oplog.detail.after')}>{value(entry.after)}</Descriptions.Item>
      <Descriptions.Item label={t('oplog.detail.seq')}>{entry.seq}</Descriptions.Item>
      <Descriptions.Item label={t('oplog.detail.requestId')}>{entry.requestId ?? '--'}</Descriptions.Item>
      <Descriptions.Item label={t('oplog.detail.ip')}>{entry.ip ?? '--'}</Descriptions.Item>
    </Descriptions>
  );
}
