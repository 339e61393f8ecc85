/** Hand sign (手写签名): a signature drawn in a dialog, uploaded as a PNG through the handSign scene. */
import { useCallback, useContext, useRef, useState } from 'react';
import { Button, Modal, Space, Typography, theme } from 'antd';
import { DeleteOutlined, EditOutlined, MobileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import SignaturePad from 'signature_pad';
import type { FileRef } from '@tritium/shared/controls/values';
import { isApiError } from '../../../lib/api-error.ts';
import { hasToken } from '../../../lib/session.ts';
import { uploadFile, useFileUrls } from '../api/upload.ts';
import { RuntimeFormContext } from '../components/form-context.ts';
import { PhoneSignDialog } from './phone-sign-dialog.tsx';
import { EMPTY_TEXT, type DisplayProps, type FieldKind, type FieldProps } from './field-types.ts';

const PAD_HEIGHT = 240;
const SIGNATURE_NAME = 'signature.png';

/** A data: URL's bytes as a file (no fetch: the bytes are already here). */
export function dataUrlToFile(dataUrl: string, name: string): File {
  const [head, data = ''] = dataUrl.split(',', 2);
  const type = /^data:([^;,]+)/.exec(head)?.[1] ?? 'image/png';
  const binary = head.includes(';base64') ? atob(data) : decodeURIComponent(data);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new File([bytes], name, { type });
}

function SignatureImage({ file, url, print }: { file: FileRef; url: string | undefined; print?: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  if (!url) return <Typography.Text type="secondary">{file.name}</Typography.Text>;
  return (
    <img
      src={url}
      alt={t('formRuntimeFields.sign.image')}
      style={{ maxWidth: 240, maxHeight: 120, border: print ? undefined : `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius }}
    />
  );
}

type SignDialogProps = {
  open: boolean;
  onClose: () => void;
} & (
  | { onSigned: (file: FileRef) => void; onDrawn?: undefined }
  /** The drawing as a PNG data URL, not uploaded (an approval opinion's signature travels with the opinion). */
  | { onDrawn: (dataUrl: string) => void; onSigned?: undefined }
);

/** The signature pad in a dialog: the field uploads the drawing, an approval opinion keeps it as a data URL. */
export function SignDialog({ open, onClose, onSigned, onDrawn }: SignDialogProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const pad = useRef<SignaturePad | null>(null);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  // The pad lives as long as its canvas: made when the dialog's body mounts, dropped when it unmounts.
  const canvasRef = useCallback((canvas: HTMLCanvasElement | null) => {
    pad.current?.off();
    pad.current = null;
    if (!canvas) return;
    // Draw at the screen's resolution so the strokes are sharp.
    const ratio = Math.max(window.devicePixelRatio || 1, 1);
    canvas.width = (canvas.offsetWidth || 480) * ratio;
    canvas.height = (canvas.offsetHeight || PAD_HEIGHT) * ratio;
    canvas.getContext('2d')?.scale(ratio, ratio);
    pad.current = new SignaturePad(canvas);
  }, []);

  const handleClear = () => {
    pad.current?.clear();
    setError(undefined);
  };

  const handleOk = async () => {
    if (!pad.current || pad.current.isEmpty()) return setError(t('formRuntimeFields.sign.empty'));
    setError(undefined);
    if (onDrawn) return onDrawn(pad.current.toDataURL('image/png'));
    setSaving(true);
    try {
      onSigned?.(await uploadFile(dataUrlToFile(pad.current.toDataURL('image/png'), SIGNATURE_NAME), 'handSign'));
    } catch (caught) {
      const message = isApiError(caught) ? caught.errorMessage : caught instanceof Error ? caught.message : String(caught);
      setError(t('formRuntimeFields.sign.uploadFailed', { message }));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('formRuntimeFields.sign.title')}
      onCancel={onClose}
      destroyOnHidden
      width={560}
      footer={[
        <Button key="clear" onClick={handleClear}>
          {t('formRuntimeFields.sign.clear')}
        </Button>,
        <Button key="ok" type="primary" loading={saving} onClick={() => void handleOk()}>
          {t('formRuntimeFields.sign.confirm')}
        </Button>,
      ]}
    >
      <Typography.Text type="secondary">{t('formRuntimeFields.sign.hint')}</Typography.Text>
      <canvas
        ref={canvasRef}
        aria-label={t('formRuntimeFields.sign.pad')}
        style={{
          display: 'block',
          width: '100%',
          height: PAD_HEIGHT,
          marginTop: token.marginXS,
          border: `1px dashed ${token.colorBorder}`,
          borderRadius: token.borderRadius,
          touchAction: 'none',
        }}
      />
      {error && (
        <Typography.Text type="danger" role="alert">
          {error}
        </Typography.Text>
      )}
    </Modal>
  );
}

function HandSignEdit({ value, onChange, id, disabled, device, schemaCode, control }: FieldProps<FileRef>) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [phoneOpen, setPhoneOpen] = useState(false);
  const urls = useFileUrls(value ? [value.id] : []);
  // A saved record's id binds the phone's link to it; a new record's signature comes back to this form only.
  const form = useContext(RuntimeFormContext);
  const objectId = form?.system.ObjectId;
  // The phone signs main-table fields for a signed-in member (a sub-table column's signature is drawn here).
  const phone = device === 'pc' && hasToken() && (!form || Object.prototype.hasOwnProperty.call(form.form.values, control.code));
  const handleSigned = (file: FileRef) => {
    onChange(file);
    setOpen(false);
    setPhoneOpen(false);
  };
  return (
    <Space orientation="vertical" size="small">
      {value && <SignatureImage file={value} url={urls[value.id]} />}
      <Space size="small" wrap>
        <Button id={id} icon={<EditOutlined />} onClick={() => setOpen(true)} disabled={disabled}>
          {t('formRuntimeFields.sign.open')}
        </Button>
        {phone && (
          <Button icon={<MobileOutlined />} onClick={() => setPhoneOpen(true)} disabled={disabled}>
            {t('formRuntimeFields.sign.phone')}
          </Button>
        )}
        {value && !disabled && (
          <Button icon={<DeleteOutlined />} aria-label={t('formRuntimeFields.sign.remove')} onClick={() => onChange(null)} />
        )}
      </Space>
      <SignDialog open={open} onClose={() => setOpen(false)} onSigned={handleSigned} />
      <PhoneSignDialog
        open={phoneOpen}
        target={{ schemaCode, controlCode: control.code, ...(typeof objectId === 'string' && objectId ? { objectId } : {}) }}
        onClose={() => setPhoneOpen(false)}
        onSigned={handleSigned}
      />
    </Space>
  );
}

function HandSignDisplay({ value, print }: DisplayProps<FileRef>) {
  const urls = useFileUrls(value ? [value.id] : []);
  if (!value) return <span>{EMPTY_TEXT}</span>;
  return <SignatureImage file={value} url={urls[value.id]} print={print} />;
}

export const handSignField: FieldKind<FileRef> = { Edit: HandSignEdit, Display: HandSignDisplay };
