/** Batch scan, computed and looked-up values, system fields, the status and the controls of outside services. */
import { App, Button, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { BIZ_OBJECT_STATUS_COLORS, BIZ_OBJECT_STATUS_LABELS, type BizObjectStatus } from '@tritium/shared/constants/data-status';
import { batchScanField } from './batch-scan-field.tsx';
import { DisplayText } from './default-display.tsx';
import { EMPTY_TEXT, type AnyFieldKind, type DisplayProps, type FieldProps } from './field-types.ts';

/** Values whose shape the platform does not know (dynamic): shown, never typed. */
function Shown(props: FieldProps) {
  return <DisplayText control={props.control} value={props.value} device={props.device} print={false} />;
}

// ui.md: antd's grey is "default".
const tagColor = (status: BizObjectStatus) => (BIZ_OBJECT_STATUS_COLORS[status] === 'grey' ? 'default' : BIZ_OBJECT_STATUS_COLORS[status]);

export function StatusTag({ status }: { status: number | null | undefined }) {
  if (status == null || !(status in BIZ_OBJECT_STATUS_LABELS)) return <Typography.Text>{EMPTY_TEXT}</Typography.Text>;
  const known = status as BizObjectStatus;
  return (
    <Tag color={tagColor(known)} style={{ alignSelf: 'flex-start' }}>
      {BIZ_OBJECT_STATUS_LABELS[known]}
    </Tag>
  );
}

function StatusDisplay({ value }: DisplayProps<number>) {
  return <StatusTag status={value} />;
}

/** OCR, e-sign, face recognition, advanced buttons and plugins: designed now, their service arrives later. */
function ServiceEdit({ control, disabled }: FieldProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <Button disabled={disabled} onClick={() => void message.info(t('formRuntime.serviceNotConfigured', { name: control.label }))}>
      {control.label}
    </Button>
  );
}

export const OTHER_FIELDS = {
  batchScan: batchScanField,
  dynamic: { Edit: Shown },
  status: { Edit: (props: FieldProps<number>) => <StatusTag status={props.value} />, Display: StatusDisplay },
  ocr: { Edit: ServiceEdit },
  eSign: { Edit: ServiceEdit },
  faceRecognition: { Edit: ServiceEdit },
  advancedButton: { Edit: ServiceEdit },
  plugin: { Edit: ServiceEdit },
  button: { Edit: ServiceEdit },
} satisfies Record<string, AnyFieldKind>;
