/**
 * Batch scan (批量扫码): codes read one after another by the camera, or typed (a handheld scanner types and presses
 * Enter), kept as the field's list; with a sub-table and a column set, each new code also adds a row holding it.
 */
import { useContext, useRef, useState, type KeyboardEvent } from 'react';
import { Button, Flex, Input, Tag, Typography, theme } from 'antd';
import { ScanOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { MAX_BATCH_SCAN_ITEMS } from '@tritium/shared/constants/limits';
import { RuntimeFormContext } from '../components/form-context.ts';
import { addScanned, rowsFor, scanTarget, withoutRowOf } from './batch-scan-codes.ts';
import type { FieldKind, FieldProps } from './field-types.ts';
import { ScanCamera, cameraScanAvailable } from './scan-camera.tsx';

function BatchScanEdit({ control, value, onChange, id, disabled }: FieldProps<string[]>) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const form = useContext(RuntimeFormContext);
  const [text, setText] = useState('');
  const [camera, setCamera] = useState(false);
  const [status, setStatus] = useState('');
  // Scans may come faster than renders: the list as last changed here.
  const codes = useRef<string[]>(value ?? []);
  codes.current = value ?? [];
  const target = scanTarget(control.options);
  const allowDuplicates = control.options.allowDuplicates === true;

  const add = (scanned: string[]) => {
    const result = addScanned(codes.current, scanned, allowDuplicates);
    if (result.added.length) {
      codes.current = result.value;
      onChange(result.value);
      if (target && form) form.setRows(target.grid, (rows) => [...rows, ...rowsFor(target.column, result.added)]);
    }
    const notes = [
      result.added.length ? t('formRuntime.batchScan.scanned', { count: result.value.length, code: result.added.at(-1) }) : '',
      result.repeated.length ? t('formRuntime.batchScan.repeated', { code: result.repeated.join('、') }) : '',
      result.overLimit ? t('formRuntime.batchScan.full', { max: MAX_BATCH_SCAN_ITEMS }) : '',
    ];
    setStatus(notes.filter(Boolean).join(' '));
  };
  const remove = (index: number) => {
    const code = codes.current[index];
    const next = codes.current.filter((_, i) => i !== index);
    codes.current = next;
    onChange(next.length ? next : null);
    if (target && form && code !== undefined) form.setRows(target.grid, (rows) => withoutRowOf(rows, target.column, code));
  };
  const onEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    add([text]);
    setText('');
  };

  return (
    <Flex vertical gap={token.paddingXS} style={{ width: '100%' }}>
      {!disabled && (
        <Flex gap={token.paddingXS}>
          <Input id={id} aria-label={control.label} value={text} placeholder={t('formRuntime.scanPlaceholder')} onChange={(e) => setText(e.target.value)} onPressEnter={onEnter} />
          {cameraScanAvailable() && (
            <Button icon={<ScanOutlined />} onClick={() => setCamera(true)}>
              {t('formRuntime.batchScan.camera')}
            </Button>
          )}
        </Flex>
      )}
      {status && !camera && (
        <Typography.Text type="secondary" role="status" style={{ fontSize: token.fontSizeSM }}>
          {status}
        </Typography.Text>
      )}
      {(value ?? []).length > 0 && (
        <Flex wrap gap={token.paddingXXS} role="list" aria-label={t('formRuntime.batchScan.list', { name: control.label })}>
          {(value ?? []).map((code, index) => (
            <Tag key={`${index}-${code}`} role="listitem" closable={!disabled} onClose={(event) => {
                event.preventDefault();
                remove(index);
              }} style={{ marginInlineEnd: 0 }}>
              {code}
            </Tag>
          ))}
        </Flex>
      )}
      <ScanCamera open={camera} title={control.label} onCodes={add} onClose={() => setCamera(false)} status={status} />
    </Flex>
  );
}

export const batchScanField: FieldKind<string[]> = { Edit: BatchScanEdit };
