import { useContext, useEffect, useState } from 'react';
import { App, Button, Flex, Popconfirm, Skeleton, Tooltip, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { contracts } from '@tritium/shared';
import { RuntimeFormContext } from '../components/form-context.ts';
import type { DisplayProps, FieldProps } from './field-types.ts';
import { eSignApi, eSignKeys, type ESignFlowDto, type ESignTarget } from '../../e-sign/esign-api.ts';
import { ESignFlowView, FlowStateTag } from '../../e-sign/esign-flow-view.tsx';
import { ESignStartDialog } from '../../e-sign/esign-start-dialog.tsx';

// The e-sign control (docs/decisions/0123, e-signature). Its value {flowId, state} is written by the server only; the
// control starts a flow for a saved record (发起签署), shows the flow's state, each signer's state and the trail, the
// signing link to the signer whose turn it is, and 撤销 to the initiator. Without a provider installed: 插件未安装.

const valueOf = (value: unknown) => {
  const parsed = contracts.ESignFlowDto.pick({ flowId: true, state: true }).safeParse(value);
  return parsed.success ? parsed.data : null;
};

/** While a flow runs, its page is asked again now and then: the signers act on the provider's pages. */
const POLL_MS = 5_000;

function ESignPanel({ controlCode, value, onValue, disabled }: { controlCode: string; value: unknown; onValue?: (value: unknown) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const form = useContext(RuntimeFormContext);
  const queryClient = useQueryClient();
  const objectId = form && typeof form.system.ObjectId === 'string' && form.system.ObjectId ? form.system.ObjectId : null;
  const target: ESignTarget | null = form && objectId ? { schemaCode: form.schemaCode, objectId, controlCode } : null;
  const result = useQuery({
    queryKey: target ? eSignKeys.flow(target) : ['eSign', 'none'],
    queryFn: () => eSignApi.flow(target!),
    enabled: !!target,
    refetchInterval: (query) => (query.state.data?.flow?.state === 'Running' ? POLL_MS : false),
  });
  const [starting, setStarting] = useState(false);
  const [revoking, setRevoking] = useState(false);
  const latest = result.data?.flow;
  const held = valueOf(value);
  // The signers move the flow on the provider's pages: the open form's copy follows, so that saving the form later
  // does not write back a state the server has moved past.
  useEffect(() => {
    if (latest && onValue && (held?.flowId !== latest.flowId || held.state !== latest.state)) onValue({ flowId: latest.flowId, state: latest.state });
  }, [latest, held?.flowId, held?.state, onValue]);

  const changed = (flow: ESignFlowDto) => {
    // The open form's copy follows the server's, so a later save of the form does not write back an older one.
    onValue?.({ flowId: flow.flowId, state: flow.state });
    if (target) void queryClient.invalidateQueries({ queryKey: eSignKeys.flow(target) });
  };
  const revoke = async (flowId: string) => {
    setRevoking(true);
    try {
      changed(await eSignApi.revoke(flowId));
      void message.success(t('eSign.revoked'));
    } catch {
      // The client has shown the server's message.
    } finally {
      setRevoking(false);
    }
  };

  if (!target) {
    const shown = valueOf(value);
    return (
      <Flex vertical gap={4}>
        {shown && <FlowStateTag state={shown.state} />}
        <Typography.Text type="secondary">{t('eSign.saveFirst')}</Typography.Text>
      </Flex>
    );
  }
  if (result.isLoading) return <Skeleton active paragraph={{ rows: 1 }} />;
  const data = result.data;
  if (data && !data.installed && !data.flow) {
    return (
      <Tooltip title={t('eSign.notInstalledHint')}>
        <Typography.Text type="warning" data-testid="esign-not-installed" style={{ alignSelf: 'flex-start' }}>
          {t('eSign.notInstalled')}
        </Typography.Text>
      </Tooltip>
    );
  }
  const flow = data?.flow ?? null;
  const mine = flow?.signers.find((s) => s.signUrl);
  return (
    <Flex vertical gap={8} style={{ alignSelf: 'stretch' }}>
      <Flex gap={8} align="center" wrap>
        {flow ? <FlowStateTag state={flow.state} /> : <Typography.Text type="secondary">{t('eSign.noFlow')}</Typography.Text>}
        {mine && <Typography.Text type="warning">{mine.state === 'WaitForApproval' ? t('eSign.waitingApproval') : t('eSign.yourTurn')}</Typography.Text>}
        {data?.canStart && (
          <Button type="primary" disabled={disabled} onClick={() => setStarting(true)}>
            {flow ? t('eSign.startAgain') : t('eSign.start')}
          </Button>
        )}
        {flow?.canRevoke && (
          <Popconfirm title={t('eSign.revokeConfirm')} okText={t('common.ok')} cancelText={t('common.cancel')} onConfirm={() => void revoke(flow.flowId)}>
            <Button danger loading={revoking} disabled={disabled}>
              {t('eSign.revoke')}
            </Button>
          </Popconfirm>
        )}
        {flow && <Button type="text" size="small" icon={<ReloadOutlined />} aria-label={t('eSign.refresh')} onClick={() => void result.refetch()} />}
      </Flex>
      {flow && <ESignFlowView flow={flow} />}
      {starting && (
        <ESignStartDialog
          target={target}
          providerName={data?.providerName ?? null}
          onClose={() => setStarting(false)}
          onStarted={(next) => {
            setStarting(false);
            changed(next);
            void message.success(t('eSign.started'));
          }}
        />
      )}
    </Flex>
  );
}

/** The e-sign control in an editing form. */
export function ESignField({ control, value, onChange, disabled }: FieldProps) {
  return <ESignPanel controlCode={control.code} value={value} onValue={onChange} disabled={disabled} />;
}

/** The control in a record being read: the flow and its actions (signing changes no field); print shows the state only. */
export function ESignDisplay({ control, value, print }: DisplayProps) {
  const form = useContext(RuntimeFormContext);
  const shown = valueOf(value);
  if (print || !form) return shown ? <FlowStateTag state={shown.state} /> : <Typography.Text>--</Typography.Text>;
  return <ESignPanel controlCode={control.code} value={value} />;
}

export const eSignField = { Edit: ESignField, Display: ESignDisplay };
