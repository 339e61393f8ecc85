import { useEffect, useState } from 'react';
import { App, Button, Input, Modal, Tag, Tooltip, Typography, Upload } from 'antd';
import { PictureOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { contracts } from '@tritium/shared';
import { aiApi, aiKeys } from './ai-api.ts';
import { takeDraft } from './record-drafts.ts';

/**
 * 智能填单 (docs/decisions/0124): a pasted text (or a picture, by the vision model) is read by the engine's model into the form's fields; the values that
 * pass the save's checks are set (the form is not saved: the person checks and saves), and the fields filled are
 * named beside the button. Shown only where the engine's AI is available and the form is being filled.
 */
export function SmartFillButton({
  schemaCode,
  labelOf,
  apply,
  upload,
  uploadPdf,
}: {
  schemaCode: string;
  labelOf: (code: string) => string;
  apply: (result: contracts.FormExtractionResult) => void;
  /** Uploads a picture as the form does (the form runtime's upload), answering its file id. */
  upload: (file: File) => Promise<string>;
  /** Uploads a PDF (scene ocrAttachment), answering its file id; absent: pictures only. */
  uploadPdf?: (file: File) => Promise<string>;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const status = useQuery({ queryKey: aiKeys.status, queryFn: aiApi.status, staleTime: 60_000 });
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [picture, setPicture] = useState<{ fileId: string; name: string } | null>(null);
  const [uploading, setUploading] = useState(false);
  const [filled, setFilled] = useState<string[]>([]);
  // A record the assistant drafted (docs/decisions/0126): filled in once when the page opens, and marked as AI-filled.
  useEffect(() => {
    const draft = takeDraft(schemaCode);
    if (!draft) return;
    apply({ values: draft.values, children: {}, filled: draft.filled, issues: draft.issues });
    setFilled(draft.filled);
    void message.info(t('ai.draft.opened', { count: draft.filled.length }));
    for (const issue of draft.issues) void message.warning(issue.message);
    // Once, for the page's form (apply and the texts are the same for it).
  }, [schemaCode]);
  const extract = useMutation({
    mutationFn: () => aiApi.extract({ schemaCode, ...(text.trim() ? { text } : {}), ...(picture ? { fileId: picture.fileId } : {}) }),
    onSuccess: (result) => {
      apply(result);
      setFilled(result.filled);
      setOpen(false);
      setText('');
      setPicture(null);
      if (result.filled.length) void message.success(t('ai.fill.done', { count: result.filled.length }));
      else void message.info(t('ai.fill.nothing'));
      for (const issue of result.issues) void message.warning(issue.message);
    },
  });
  if (!status.data?.available) return null;
  return (
    <>
      {filled.length > 0 && (
        <Tooltip title={filled.map(labelOf).join('、')}>
          <Tag color="purple" data-testid="smart-filled">
            {t('ai.fill.marked', { count: filled.length })}
          </Tag>
        </Tooltip>
      )}
      <Button size="small" icon={<ThunderboltOutlined />} onClick={() => setOpen(true)}>
        {t('ai.fill.button')}
      </Button>
      <Modal
        title={t('ai.fill.title')}
        open={open}
        okText={t('ai.fill.ok')}
        cancelText={t('common.cancel')}
        okButtonProps={{ disabled: (!text.trim() && !picture) || uploading, loading: extract.isPending }}
        onOk={() => extract.mutate()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t('ai.fill.hint')}</Typography.Paragraph>
        <Input.TextArea aria-label={t('ai.fill.title')} autoSize={{ minRows: 6, maxRows: 14 }} maxLength={20000} value={text} onChange={(event) => setText(event.target.value)} placeholder={t('ai.fill.placeholder')} />
        <Upload
          accept={uploadPdf ? 'image/png,image/jpeg,image/webp,application/pdf' : 'image/png,image/jpeg,image/webp'}
          maxCount={1}
          showUploadList={false}
          beforeUpload={(file) => {
            setUploading(true);
            const isPdf = file.type === 'application/pdf' || file.name.toLowerCase().endsWith('.pdf');
            (isPdf && uploadPdf ? uploadPdf(file) : upload(file))
              .then((fileId) => setPicture({ fileId, name: file.name }))
              .catch(() => undefined)
              .finally(() => setUploading(false));
            return false;
          }}
        >
          <Button icon={<PictureOutlined />} loading={uploading} style={{ marginTop: 8 }}>
            {t(uploadPdf ? 'ai.fill.pictureOrPdf' : 'ai.fill.picture')}
          </Button>
        </Upload>
        {picture && (
          <Tag closable onClose={() => setPicture(null)} style={{ marginTop: 8, marginInlineStart: 8 }} data-testid="smart-fill-picture">
            {picture.name}
          </Tag>
        )}
      </Modal>
    </>
  );
}
