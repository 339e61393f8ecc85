import { useState } from 'react';
import { App, Button, Input, Modal, Typography } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { contracts } from '@tritium/shared';
import { aiApi, aiKeys } from './ai-api.ts';
import { AppProposalEditor } from './app-proposal-editor.tsx';

// AI 生成应用 (docs/decisions/0126): a description → the model's proposal (forms, fields, list, approval, dashboard) →
// the person edits it → 创建, which the server carries out through the designers' own save and publish.

const EXAMPLE = '客户拜访记录，要有客户、拜访时间、拜访人、照片，经理审批';

export function AppProposalDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (result: contracts.AppCreateResult) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [description, setDescription] = useState('');
  const [answer, setAnswer] = useState<contracts.AppProposalResult | null>(null);
  const [proposal, setProposal] = useState<contracts.AppProposal | null>(null);
  const settled = () => void queryClient.invalidateQueries({ queryKey: aiKeys.status });
  const propose = useMutation({
    mutationFn: () => aiApi.proposeApp({ description }),
    onSuccess: (result) => {
      setAnswer(result);
      setProposal(result.proposal);
    },
    onSettled: settled,
  });
  const create = useMutation({
    mutationFn: () => aiApi.createApp({ proposal: proposal! }),
    onSuccess: (result) => {
      void message.success(t('ai.app.created', { name: proposal!.appName }));
      onCreated(result);
    },
  });

  const editing = !!proposal && !!answer;
  const footer = editing
    ? [
        <Button key="back" disabled={create.isPending} onClick={() => setProposal(null)}>
          {t('ai.app.back')}
        </Button>,
        <Button key="create" type="primary" loading={create.isPending} disabled={!proposal.appName.trim() || proposal.forms.some((f) => !f.name.trim())} onClick={() => create.mutate()}>
          {t('ai.app.create')}
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={onClose}>
          {t('common.cancel')}
        </Button>,
        <Button key="propose" type="primary" loading={propose.isPending} disabled={!description.trim()} onClick={() => propose.mutate()}>
          {t('ai.app.propose')}
        </Button>,
      ];

  return (
    <Modal title={t('ai.app.title')} open={open} onCancel={onClose} footer={footer} width={720} destroyOnHidden maskClosable={false}>
      {editing ? (
        <>
          <Typography.Paragraph type="secondary">{t('ai.app.editHint')}</Typography.Paragraph>
          <AppProposalEditor proposal={proposal} onChange={setProposal} controlTypes={answer.controlTypes} roles={answer.roles} />
        </>
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t('ai.app.hint')}</Typography.Paragraph>
          <Input.TextArea aria-label={t('ai.app.description')} autoSize={{ minRows: 4, maxRows: 10 }} maxLength={2000} value={description} placeholder={EXAMPLE} onChange={(e) => setDescription(e.target.value)} />
          {propose.isPending && <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>{t('ai.app.thinking')}</Typography.Paragraph>}
        </>
      )}
    </Modal>
  );
}
