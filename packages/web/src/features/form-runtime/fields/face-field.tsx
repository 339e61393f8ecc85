import { useContext, useRef, useState, type ChangeEvent } from 'react';
import { Button, Flex, Spin, Typography } from 'antd';
import { CameraOutlined, CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { UserPicker, type PickedUnit } from '../../../components/org-picker/index.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { uploadFile } from '../api/upload.ts';
import { RuntimeFormContext } from '../components/form-context.ts';
import { DisplayText } from './default-display.tsx';
import type { DisplayProps, FieldKind, FieldProps } from './field-types.ts';
import { faceCheckApi, faceCheckKeys, type FaceCheckResult } from '../../face-check/face-check-api.ts';
import { shrinkPhoto } from '../../face-check/shrink-photo.ts';

/**
 * The face-recognition control (人脸识别, docs/decisions/0123 "Face check"): on a phone the button opens the front
 * camera (`capture="user"`), on a computer it picks a picture; the photo is uploaded and compared on the server with
 * the person's stored photo. A pass sets the value to the check's id, which the save turns into the person's id; a
 * fail or an error shows why and offers another try. A saved record shows the person and the score of its check.
 */

type Outcome = { kind: 'result'; result: FaceCheckResult } | { kind: 'error'; message: string };

function useRecordCheck(controlCode: string, enabled: boolean) {
  const form = useContext(RuntimeFormContext);
  const objectId = typeof form?.system.ObjectId === 'string' ? form.system.ObjectId : '';
  const schemaCode = form?.schemaCode ?? '';
  return useQuery({
    queryKey: faceCheckKeys.record(schemaCode, objectId, controlCode),
    queryFn: () => faceCheckApi.record({ schemaCode, objectId, controlCode }),
    enabled: enabled && Boolean(schemaCode && objectId),
    staleTime: 60_000,
  });
}

function ResultLine({ matched, score, name }: { matched: boolean; score: number; name?: string }) {
  const { t } = useTranslation();
  return (
    <Typography.Text type={matched ? 'success' : 'danger'} data-testid="face-result">
      {matched ? <CheckCircleFilled /> : <CloseCircleFilled />} {t(matched ? 'faceCheck.passed' : 'faceCheck.failed', { score })}
      {name ? `（${name}）` : ''}
    </Typography.Text>
  );
}

function FaceEdit({ control, value, onChange, disabled, device, schemaCode, id }: FieldProps<string>) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [checking, setChecking] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [person, setPerson] = useState<PickedUnit | null>(null);
  const anyUser = control.options.match === 'anyUser';
  const status = useQuery({ queryKey: faceCheckKeys.status, queryFn: () => faceCheckApi.status(), staleTime: 30_000 });
  const saved = useRecordCheck(control.code, Boolean(value) && outcome === null);

  const choose = () => {
    if (anyUser && !person) return setOutcome({ kind: 'error', message: t('faceCheck.choosePerson') });
    input.current?.click();
  };
  const check = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setChecking(true);
    setOutcome(null);
    try {
      const photo = await shrinkPhoto(file);
      const uploaded = await uploadFile(photo, 'image');
      const result = await faceCheckApi.compare({ schemaCode, controlCode: control.code, fileId: uploaded.id, ...(anyUser && person ? { userId: person.id } : {}) });
      setOutcome({ kind: 'result', result });
      onChange(result.matched ? result.checkId : null);
    } catch (error) {
      setOutcome({ kind: 'error', message: error instanceof ApiError ? error.errorMessage : String(error) });
      onChange(null);
    } finally {
      setChecking(false);
    }
  };

  const installed = status.data?.installed ?? true;
  const lacksPhoto = !anyUser && status.data?.installed === true && status.data.hasPhoto === false;
  const hasResult = outcome?.kind === 'result';
  const label = hasResult || outcome?.kind === 'error' || value ? t('faceCheck.retry') : device === 'phone' ? t('faceCheck.takePhoto') : t('faceCheck.uploadPhoto');
  return (
    <Flex vertical gap={6} style={{ alignItems: 'flex-start' }}>
      {anyUser && (
        <div style={{ width: '100%', maxWidth: 320 }}>
          <UserPicker aria-label={t('faceCheck.person')} disabled={disabled || checking} value={person} onChange={setPerson} />
        </div>
      )}
      <input
        ref={input}
        id={id}
        type="file"
        accept="image/*"
        {...(device === 'phone' ? { capture: 'user' as const } : {})}
        style={{ display: 'none' }}
        data-testid="face-input"
        onChange={(event) => void check(event)}
      />
      <Button icon={<CameraOutlined />} disabled={disabled || checking || !installed} onClick={choose}>
        {label}
      </Button>
      {checking && (
        <Typography.Text type="secondary">
          <Spin size="small" /> {t('faceCheck.checking')}
        </Typography.Text>
      )}
      {!installed && <Typography.Text type="warning">{t('faceCheck.notInstalled')}</Typography.Text>}
      {lacksPhoto && <Typography.Text type="warning">{t('faceCheck.noPhoto')}</Typography.Text>}
      {outcome?.kind === 'result' && <ResultLine matched={outcome.result.matched} score={outcome.result.score} name={outcome.result.userName} />}
      {outcome?.kind === 'error' && <Typography.Text type="danger">{outcome.message}</Typography.Text>}
      {!outcome && value && saved.data?.check && <ResultLine matched score={saved.data.check.score} name={saved.data.check.userName} />}
    </Flex>
  );
}

function FaceDisplay(props: DisplayProps<string>) {
  const { t } = useTranslation();
  const saved = useRecordCheck(props.control.code, Boolean(props.value));
  const check = saved.data?.check;
  if (!check) return <DisplayText {...props} />;
  return <Typography.Text data-testid="face-display">{t('faceCheck.display', { name: check.userName, score: check.score })}</Typography.Text>;
}

export const faceRecognitionField: FieldKind<string> = { Edit: FaceEdit, Display: FaceDisplay };
