import { Button, Descriptions, Flex, Tag, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { contracts } from '@tritium/shared';
import { formatDateTime } from '../../lib/date-format.ts';
import { useSignedFileUrls, type ESignFlowDto } from './esign-api.ts';

// A flow as the record's readers see it: its state, each signer's state with times, the documents and the trail.

type FlowState = contracts.ESignFlowDto['state'];
type SignerState = contracts.ESignFlowDto['signers'][number]['state'];

export const FLOW_COLORS: Record<FlowState, string> = { PreCommit: 'default', Draft: 'default', Running: 'processing', Finish: 'success', Revoke: 'default', Abort: 'error', Expired: 'warning', Delete: 'default', Refuse: 'error' };
const SIGNER_COLORS: Record<SignerState, string> = { Waiting: 'default', Signing: 'processing', Complete: 'success', WaitForApproval: 'warning', Refuse: 'error' };

export function FlowStateTag({ state }: { state: FlowState }) {
  const { t } = useTranslation();
  return (
    <Tag color={FLOW_COLORS[state]} data-testid="esign-flow-state" style={{ marginInlineEnd: 0, alignSelf: 'flex-start' }}>
      {t(`eSign.flowStates.${state}` as const)}
    </Tag>
  );
}

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

function FileLink({ file, url }: { file: { id: string; name: string; size: number }; url: string | undefined }) {
  return url ? (
    <Typography.Link href={url} target="_blank" rel="noreferrer">
      {file.name}（{sizeText(file.size)}）
    </Typography.Link>
  ) : (
    <Typography.Text>{file.name}</Typography.Text>
  );
}

export function ESignFlowView({ flow, print }: { flow: ESignFlowDto; print?: boolean }) {
  const { t } = useTranslation();
  const files = [flow.document, flow.signed].filter((f): f is NonNullable<typeof f> => !!f);
  const urls = useSignedFileUrls(print ? [] : files.map((f) => f.id));
  const eventText = (e: ESignFlowDto['events'][number]) => t(`eSign.events.${e.kind}` as 'eSign.events.started', { name: e.name ?? '', initiator: flow.initiator.name, defaultValue: e.kind });
  return (
    <Flex vertical gap={8} style={{ alignSelf: 'stretch' }}>
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t('eSign.signers')}>
          <Flex vertical gap={4}>
            {flow.signers.map((s) => (
              <Flex key={s.order} gap={8} align="center" wrap data-testid="esign-signer">
                <Typography.Text>{t('eSign.order', { order: s.order })}</Typography.Text>
                <Typography.Text strong>{s.name}</Typography.Text>
                <Typography.Text type="secondary">{s.mobile}</Typography.Text>
                <Tag color={SIGNER_COLORS[s.state]} style={{ marginInlineEnd: 0 }}>
                  {t(`eSign.signerStates.${s.state}` as const)}
                </Tag>
                {s.signedTime && <Typography.Text type="secondary">{formatDateTime(s.signedTime)}</Typography.Text>}
                {!s.signedTime && s.startedTime && <Typography.Text type="secondary">{formatDateTime(s.startedTime)}</Typography.Text>}
                {s.reason && <Typography.Text type="danger">{t('eSign.reason', { reason: s.reason })}</Typography.Text>}
                {!print && s.signUrl && (
                  <Button type="primary" size="small" href={s.signUrl} target="_blank" rel="noreferrer">
                    {s.state === 'WaitForApproval' ? t('eSign.waitingApproval') : t('eSign.signNow')}
                  </Button>
                )}
              </Flex>
            ))}
          </Flex>
        </Descriptions.Item>
        {flow.document && (
          <Descriptions.Item label={t('eSign.document')}>
            <FileLink file={flow.document} url={urls[flow.document.id]} />
          </Descriptions.Item>
        )}
        {flow.signed && (
          <Descriptions.Item label={t('eSign.signedFile')}>
            <FileLink file={flow.signed} url={urls[flow.signed.id]} />
          </Descriptions.Item>
        )}
      </Descriptions>
      <Typography.Text type="secondary">
        {t('eSign.initiator', { name: flow.initiator.name })} · {t('eSign.startedAt', { time: formatDateTime(flow.createdTime) })}
        {flow.finishedTime ? ` · ${t('eSign.finishedAt', { time: formatDateTime(flow.finishedTime) })}` : ''}
      </Typography.Text>
      {!print && (
        <details>
          <summary style={{ cursor: 'pointer' }}>{t('eSign.trail')}</summary>
          <Timeline
            style={{ marginTop: 12 }}
            items={flow.events.map((e) => ({ key: `${e.kind}-${e.order ?? ''}-${e.time}`, content: `${formatDateTime(e.time)}  ${eventText(e)}${e.reason ? `（${t('eSign.reason', { reason: e.reason })}）` : ''}` }))}
          />
        </details>
      )}
    </Flex>
  );
}
