/** Photo (图片): images uploaded through the image scene, shown as 96 px thumbnails; large ones compressed first. */
import { Button, Flex, Image, Space, Typography, theme } from 'antd';
import { CameraOutlined, DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { FileRef } from '@tritium/shared/controls/values';
import { IMAGE_COMPRESSION } from '@tritium/shared/constants/limits';
import { IMAGE_CONTENT_TYPES } from '@tritium/shared/contracts/files/index';
import { MB, useFileUrls } from '../api/upload.ts';
import { EMPTY_TEXT, type DisplayProps, type FieldKind, type FieldProps } from './field-types.ts';
import { UploadButton, UploadErrors } from './upload-button.tsx';
import { useFileUploads } from './use-file-uploads.ts';

export const THUMBNAIL_SIZE = 96;

/**
 * domain.md §9: images above 5 MB are compressed in the browser at quality 20 before upload (the server has no image
 * library). GIFs are left alone (compression would stop them moving). The worker is off: it would fetch the
 * library from a CDN.
 */
export async function compressIfLarge(file: File, capBytes: number): Promise<File> {
  if (file.size <= IMAGE_COMPRESSION.thresholdMb * MB || file.type === 'image/gif') return file;
  const { default: imageCompression } = await import('browser-image-compression');
  const compressed = await imageCompression(file, {
    initialQuality: IMAGE_COMPRESSION.quality / 100,
    maxSizeMB: capBytes / MB,
    useWebWorker: false,
  });
  // The library names its result after the original; keep the original's name either way.
  return compressed.name === file.name ? compressed : new File([compressed], file.name, { type: compressed.type || file.type });
}

function Thumbnail({ file, url, print }: { file: FileRef; url: string | undefined; print?: boolean }) {
  const { token } = theme.useToken();
  const box = { width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, objectFit: 'cover', borderRadius: token.borderRadius } as const;
  if (!url) {
    return (
      <Flex
        align="center"
        justify="center"
        style={{ ...box, border: `1px solid ${token.colorBorder}`, background: token.colorFillAlter, fontSize: token.fontSizeSM, overflow: 'hidden' }}
      >
        <Typography.Text type="secondary" ellipsis>
          {file.name}
        </Typography.Text>
      </Flex>
    );
  }
  if (print) return <img src={url} alt={file.name} style={box} />;
  return <Image src={url} alt={file.name} width={THUMBNAIL_SIZE} height={THUMBNAIL_SIZE} style={box} />;
}

function PhotoEdit({ control, value, onChange, id, disabled }: FieldProps<FileRef[]>) {
  const { t } = useTranslation();
  const files = value ?? [];
  const urls = useFileUrls(files.map((file) => file.id));
  const { handleFiles, remove, uploading, errors } = useFileUploads({
    value,
    onChange,
    scene: 'image',
    maxUploadSizeMb: control.options.maxUploadSize,
    refuse: (file) =>
      (IMAGE_CONTENT_TYPES as readonly string[]).includes(file.type) ? undefined : t('formRuntimeFields.photo.notImage', { name: file.name }),
    prepare: compressIfLarge,
  });
  return (
    <Space orientation="vertical" size="small" style={{ width: '100%' }}>
      {files.length > 0 && (
        <ul aria-label={t('formRuntimeFields.photo.list')} style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          {files.map((file) => (
            <li key={file.id} style={{ position: 'relative' }}>
              <Thumbnail file={file} url={urls[file.id]} />
              {!disabled && (
                <Button
                  size="small"
                  shape="circle"
                  icon={<DeleteOutlined />}
                  aria-label={t('formRuntimeFields.files.remove', { name: file.name })}
                  onClick={() => remove(file.id)}
                  style={{ position: 'absolute', top: 2, right: 2 }}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      <UploadButton
        id={id}
        label={t('formRuntimeFields.photo.upload')}
        icon={<CameraOutlined />}
        accept={IMAGE_CONTENT_TYPES.join(',')}
        loading={uploading}
        disabled={disabled}
        onFiles={(picked) => void handleFiles(picked)}
      />
      <UploadErrors errors={errors} />
    </Space>
  );
}

function PhotoDisplay({ value, print }: DisplayProps<FileRef[]>) {
  const files = value ?? [];
  const urls = useFileUrls(files.map((file) => file.id));
  if (!files.length) return <span>{EMPTY_TEXT}</span>;
  return (
    <Flex wrap gap={8}>
      <Image.PreviewGroup>
        {files.map((file) => (
          <Thumbnail key={file.id} file={file} url={urls[file.id]} print={print} />
        ))}
      </Image.PreviewGroup>
    </Flex>
  );
}

export const photoField: FieldKind<FileRef[]> = { Edit: PhotoEdit, Display: PhotoDisplay };
