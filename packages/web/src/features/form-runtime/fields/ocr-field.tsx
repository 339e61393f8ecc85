import { useContext, useRef, useState, type ChangeEvent } from 'react';
import { Button, Flex, Tag, Tooltip, Typography } from 'antd';
import { ScanOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { FileRef } from '@tritium/shared/controls/values';
import { ApiError } from '../../../lib/api-error.ts';
import { uploadFile } from '../api/upload.ts';
import { RuntimeFormContext } from '../components/form-context.ts';
import type { FieldKind, FieldProps } from './field-types.ts';
import { ocrApi, ocrKeys } from '../../ocr/ocr-api.ts';

/**
 * The OCR control (OCR识别, docs/decisions/0125): the person uploads or photographs a picture (on a phone the button
 * opens the back camera); the server reads it on the machine with the control's recognition template and answers the
 * values of the form fields the control's mapping names, each already through the checks a save applies. They are set
 * as if typed, the fields filled are named in a tag beside the button, and what did not pass is said. The pictures
 * are the control's value (kept with the record). Nothing is saved until the person saves.
 */

type Outcome = { kind: 'filled'; labels: string[]; issues: string[] } | { kind: 'error'; message: string };

function OcrEdit({ control, value, onChange, disabled, schemaCode, id }: FieldProps<FileRef[]>) {
  const { t } = useTranslation();
  const form = useContext(RuntimeFormContext);
  const input = useRef<HTMLInputElement>(null);
  const [reading, setReading] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const status = useQuery({ queryKey: ocrKeys.status, queryFn: () => ocrApi.status(), staleTime: 30_000 });
  const templateCode = typeof control.options.templateCode === 'string' ? control.options.templateCode : null;
  const files = value ?? [];

  const read = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setReading(true);
    setOutcome(null);
    try {
      const uploaded = await uploadFile(file, 'ocrImage');
      const result = await ocrApi.fill({ schemaCode, controlCode: control.code, fileId: uploaded.id });
      for (const [code, filled] of Object.entries(result.values)) form?.setValue(code, filled);
      onChange([...files, uploaded]);
      const labelOf = (code: string) => result.fields.find((f) => f.code === (control.options.mapping as Record<string, string> | undefined)?.[code])?.name ?? code;
      setOutcome({ kind: 'filled', labels: result.filled.map(labelOf), issues: result.issues.map((i) => i.message) });
    } catch (error) {
      setOutcome({ kind: 'error', message: error instanceof ApiError ? error.errorMessage : String(error) });
    } finally {
      setReading(false);
    }
  };

  if (status.data && !status.data.installed) return <Typography.Text type="secondary">{t('ocr.notInstalled')}</Typography.Text>;
  if (!templateCode) return <Typography.Text type="secondary">{t('ocr.noTemplate')}</Typography.Text>;
  return (
    <Flex vertical gap={4} align="flex-start">
      <input ref={input} type="file" accept="image/png,image/jpeg,image/webp" capture="environment" hidden data-testid={`ocr-input-${control.code}`} onChange={(e) => void read(e)} />
      <Flex gap="small" align="center" wrap>
        <Button id={id} icon={<ScanOutlined />} disabled={disabled || reading} loading={reading} onClick={() => input.current?.click()}>
          {reading ? t('ocr.reading') : t('ocr.upload')}
        </Button>
        {outcome?.kind === 'filled' && (
          <Tooltip title={outcome.labels.join('、')}>
            <Tag color="purple" data-testid="ocr-filled">
              {t('ocr.filled', { count: outcome.labels.length })}
            </Tag>
          </Tooltip>
        )}
      </Flex>
      {outcome?.kind === 'filled' && outcome.issues.map((issue) => (
        <Typography.Text key={issue} type="warning">
          {issue}
        </Typography.Text>
      ))}
      {outcome?.kind === 'error' && <Typography.Text type="danger">{outcome.message}</Typography.Text>}
      {files.length > 0 && (
        <Typography.Text type="secondary" data-testid="ocr-files">
          {t('ocr.pictures', { names: files.map((f) => f.name).join('、') })}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** Shown (a saved record) by the registry's display text: the pictures' names. */
export const ocrField: FieldKind<FileRef[]> = { Edit: OcrEdit };
