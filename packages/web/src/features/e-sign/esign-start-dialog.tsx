import { useState } from 'react';
import { Button, Checkbox, Flex, List, Modal, Typography } from 'antd';
import { ArrowUpOutlined, DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { MultiUserPicker, type PickedUnit } from '../../components/org-picker/index.ts';
import { eSignApi, type ESignFlowDto, type ESignTarget } from './esign-api.ts';

interface Signer extends PickedUnit {
  forOrganization: boolean;
}

/** 发起签署: the signers from the engine's users, in the order they sign (the arrows move one up), each as a person or for the organisation. */
export function ESignStartDialog({ target, providerName, onStarted, onClose }: { target: ESignTarget; providerName: string | null; onStarted: (flow: ESignFlowDto) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const [signers, setSigners] = useState<Signer[]>([]);
  const [sending, setSending] = useState(false);

  const picked = (units: PickedUnit[]) =>
    // Keeps those already listed where they are (and their choice); the newly picked join at the end.
    setSigners((current) => [...current.filter((s) => units.some((u) => u.id === s.id)), ...units.filter((u) => !current.some((s) => s.id === u.id)).map((u) => ({ ...u, forOrganization: false }))]);
  const moveUp = (index: number) =>
    setSigners((current) => {
      const next = [...current];
      [next[index - 1], next[index]] = [next[index]!, next[index - 1]!];
      return next;
    });
  const send = async () => {
    setSending(true);
    try {
      onStarted(await eSignApi.start({ ...target, signers: signers.map((s) => ({ userId: s.id, forOrganization: s.forOrganization })) }));
    } catch {
      // The client has shown the server's message.
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      open
      title={t('eSign.startTitle')}
      okText={t('eSign.startOk')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: signers.length === 0, loading: sending }}
      onOk={() => void send()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Flex vertical gap={12}>
        {providerName && <Typography.Text type="secondary">{t('eSign.provider', { name: providerName })}</Typography.Text>}
        <div>
          <Typography.Text strong>{t('eSign.signersLabel')}</Typography.Text>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            {t('eSign.signersHelp')}
          </Typography.Paragraph>
          <MultiUserPicker aria-label={t('eSign.pickSigners')} placeholder={t('eSign.pickSigners')} value={signers} onChange={(units) => picked(units ?? [])} />
        </div>
        {signers.length === 0 ? (
          <Typography.Text type="secondary">{t('eSign.noSigners')}</Typography.Text>
        ) : (
          <List
            size="small"
            bordered
            dataSource={signers}
            renderItem={(signer, index) => (
              <List.Item
                data-testid="esign-signer-row"
                actions={[
                  <Button key="up" type="text" size="small" icon={<ArrowUpOutlined />} aria-label={`${t('eSign.moveUp')} ${signer.name}`} disabled={index === 0} onClick={() => moveUp(index)} />,
                  <Button key="remove" type="text" size="small" icon={<DeleteOutlined />} aria-label={`${t('eSign.removeSigner')} ${signer.name}`} onClick={() => setSigners((c) => c.filter((s) => s.id !== signer.id))} />,
                ]}
              >
                <Flex gap={12} align="center" wrap>
                  <Typography.Text>{t('eSign.order', { order: index + 1 })}</Typography.Text>
                  <Typography.Text strong>{signer.name}</Typography.Text>
                  <Checkbox checked={signer.forOrganization} onChange={(e) => setSigners((c) => c.map((s) => (s.id === signer.id ? { ...s, forOrganization: e.target.checked } : s)))}>
                    {t('eSign.forOrganization')}
                  </Checkbox>
                </Flex>
              </List.Item>
            )}
          />
        )}
      </Flex>
    </Modal>
  );
}
