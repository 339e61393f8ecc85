import { Alert, App, Button, Descriptions, Empty, Flex, Spin, Table, Typography } from 'antd';
import { UndoOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SEQ_NO_RESET_MODES, type SeqNoResetMode } from '@tritium/shared/constants/formats';
import { formToolKeys, formToolsApi } from './form-tools-api.ts';

/** 流水号: the counters of the form's sequence-number control, and 重置 after a confirmation. */
export function SeqNoPanel({ schemaCode, controlName }: { schemaCode: string; controlName?: string }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const info = useQuery({ queryKey: formToolKeys.seqNo(schemaCode), queryFn: () => formToolsApi.seqNo(schemaCode) });
  const reset = useMutation({
    mutationFn: (controlCode: string) => formToolsApi.resetSeqNo(schemaCode, controlCode),
    onSuccess: async () => {
      message.success(t('formTools.seqNo.resetDone'));
      await queryClient.invalidateQueries({ queryKey: formToolKeys.seqNo(schemaCode) });
    },
  });

  if (info.isPending) return <Spin />;
  if (info.isError) return <Alert type="warning" showIcon title={info.error.message} />;
  const { control, list } = info.data;
  if (!control) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('formTools.seqNo.none')} />;

  const mode = (SEQ_NO_RESET_MODES as readonly string[]).includes(control.resetMode) ? (control.resetMode as SeqNoResetMode) : 'none';
  const counters = list.filter((c) => c.controlCode.toLowerCase() === control.code.toLowerCase());
  const confirmReset = () =>
    modal.confirm({
      title: t('formTools.seqNo.resetTitle'),
      content: t('formTools.seqNo.resetConfirm'),
      okText: t('formTools.seqNo.resetOk'),
      okButtonProps: { danger: true },
      onOk: () => reset.mutateAsync(control.code).catch(() => undefined),
    });

  return (
    <Flex vertical gap="middle">
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'control', label: t('formTools.seqNo.control'), children: controlName ? `${controlName}（${control.code}）` : control.code },
          { key: 'mode', label: t('formTools.seqNo.resetMode'), children: t(`formTools.seqNo.resetModes.${mode}`) },
        ]}
      />
      {counters.length === 0 ? (
        <Typography.Text type="secondary">{t('formTools.seqNo.empty')}</Typography.Text>
      ) : (
        <Table
          size="small"
          pagination={false}
          rowKey="period"
          dataSource={counters}
          columns={[
            { key: 'period', title: t('formTools.seqNo.period'), render: (_, c) => c.period || t('formTools.seqNo.noPeriod') },
            { key: 'value', title: t('formTools.seqNo.value'), dataIndex: 'value' },
            { key: 'next', title: t('formTools.seqNo.next'), render: (_, c) => c.value + 1 },
          ]}
        />
      )}
      <Flex>
        <Button danger icon={<UndoOutlined />} loading={reset.isPending} onClick={confirmReset}>
          {t('formTools.seqNo.reset')}
        </Button>
      </Flex>
    </Flex>
  );
}
