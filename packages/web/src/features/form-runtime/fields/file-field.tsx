/** Attachment (附件): files uploaded through the attachment scene, listed with name and size, each removable. */
import { Button, Space, Typography } from 'antd';
import { DeleteOutlined, PaperClipOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { FileRef } from '@tritium/shared/controls/values';
import { formatFileSize, useFileUrls } from '../api/upload.ts';
import { EMPTY_TEXT, type DisplayProps, type FieldKind, type FieldProps } from './field-types.ts';
import { UploadButton, UploadErrors } from './upload-button.tsx';
import { useFileUploads } from './use-file-uploads.ts';

const listStyle = { listStyle: 'none', margin: 0, padding: 0 } as const;

/** The file's name, a link to its signed URL once it is known (plain text in print or before the link arrives). */
function FileName({ file, url }: { file: FileRef; url: string | undefined }) {
  return url ? (
    <Typography.Link href={url} target="_blank" rel="noopener noreferrer">
      {file.name}
    </Typography.Link>
  ) : (
    <Typography.Text>{file.name}</Typography.Text>
  );
}

function FileEdit({ control, value, onChange, id, disabled }: FieldProps<FileRef[]>) {
  const { t } = useTranslation();
  const files = value ?? [];
  const urls = useFileUrls(files.map((file) => file.id));
  const { handleFiles, remove, uploading, errors } = useFileUploads({
    value,
    onChange,
    scene: 'attachment',
    maxUploadSizeMb: control.options.maxUploadSize,
  });
  return (
    <Space orientation="vertical" size="small" style={{ width: '100%' }}>
      <UploadButton
        id={id}
        label={t('formRuntimeFields.files.upload')}
        icon={<PaperClipOutlined />}
        loading={uploading}
        disabled={disabled}
        onFiles={(picked) => void handleFiles(picked)}
      />
      <UploadErrors errors={errors} />
      {files.length > 0 && (
        <ul aria-label={t('formRuntimeFields.files.list')} style={listStyle}>
          {files.map((file) => (
            <li key={file.id}>
              <Space size="small">
                <PaperClipOutlined />
                <FileName file={file} url={urls[file.id]} />
                <Typography.Text type="secondary">{formatFileSize(file.size)}</Typography.Text>
                {!disabled && (
                  <Button
                    type="text"
                    size="small"
                    icon={<DeleteOutlined />}
                    aria-label={t('formRuntimeFields.files.remove', { name: file.name })}
                    onClick={() => remove(file.id)}
                  />
                )}
              </Space>
            </li>
          ))}
        </ul>
      )}
    </Space>
  );
}

function FileDisplay({ value, print }: DisplayProps<FileRef[]>) {
  const files = value ?? [];
  const urls = useFileUrls(print ? [] : files.map((file) => file.id));
  if (!files.length) return <span>{EMPTY_TEXT}</span>;
  return (
    <ul style={listStyle}>
      {files.map((file) => (
        <li key={file.id}>{print ? file.name : <FileName file={file} url={urls[file.id]} />}</li>
      ))}
    </ul>
  );
}

export const fileField: FieldKind<FileRef[]> = { Edit: FileEdit, Display: FileDisplay };
