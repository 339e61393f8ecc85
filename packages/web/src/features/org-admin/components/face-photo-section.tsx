import { useRef, useState } from 'react';
import { App, Button, Flex, Popconfirm, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-error.ts';
import { faceCheckApi, faceCheckKeys, uploadFacePhoto } from '../../face-check/face-check-api.ts';

/**
 * A member's reference photo for face checks, on the member's details in the organisation page (administrators):
 * upload or replace it (through the files module, then set), or remove it. The photo itself is never shown back to the
 * page beyond its name and time: it is a means of identification, kept out of lists and links.
 */
export function FacePhotoSection({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const photo = useQuery({ queryKey: faceCheckKeys.photo(userId), queryFn: () => faceCheckApi.photo(userId) });
  const refresh = () => client.invalidateQueries({ queryKey: faceCheckKeys.photo(userId) });

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      await faceCheckApi.setPhoto(userId, await uploadFacePhoto(file));
      void message.success(t('faceCheck.photo.saved'));
      await refresh();
    } catch (error) {
      // The client has shown a business error of the set call; the upload's refusal is said here.
      if (!(error instanceof ApiError)) void message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    await faceCheckApi.removePhoto(userId);
    void message.success(t('faceCheck.photo.removed'));
    await refresh();
  };

  const stored = photo.data?.hasPhoto;
  return (
    <Flex vertical gap={6} style={{ marginTop: 24, paddingTop: 16, borderTop: '1px solid rgba(5,5,5,0.06)' }} data-testid="face-photo-section">
      <Typography.Text strong>{t('faceCheck.photo.title')}</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('faceCheck.photo.hint')}
      </Typography.Text>
      <Typography.Text>
        {stored ? t('faceCheck.photo.stored', { time: new Date(photo.data!.uploadedTime!).toLocaleString('zh-CN') }) : t('faceCheck.photo.none')}
      </Typography.Text>
      <input ref={input} type="file" accept="image/jpeg,image/png,image/bmp" style={{ display: 'none' }} data-testid="face-photo-input" onChange={(e) => {
        const file = e.target.files?.[0];
        e.target.value = '';
        void upload(file);
      }} />
      <Flex gap="small">
        <Button icon={<UploadOutlined />} loading={busy} onClick={() => input.current?.click()}>
          {stored ? t('faceCheck.photo.replace') : t('faceCheck.photo.upload')}
        </Button>
        {stored && (
          <Popconfirm title={t('faceCheck.photo.removeConfirm')} onConfirm={() => void remove()} okText={t('common.ok')} cancelText={t('common.cancel')}>
            <Button danger>{t('faceCheck.photo.remove')}</Button>
          </Popconfirm>
        )}
      </Flex>
    </Flex>
  );
}
