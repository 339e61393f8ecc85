import { useCallback, useRef, useState } from 'react';
import { Button, Flex, Result, Skeleton, Typography, theme } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import SignaturePad from 'signature_pad';
import { formatTime } from '../../../lib/date-format.ts';
import { phoneSignApi, type SignLinkInfo } from '../api/phone-sign-api.ts';
import { FormErrorAlert } from '../components/form-error-alert.tsx';

const PAD_HEIGHT = 220;

function Asked({ info }: { info: SignLinkInfo }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={4}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {info.requesterName ? t('phoneSign.asked', { requester: info.requesterName }) : t('phoneSign.askedAnonymous')}
      </Typography.Title>
      <Typography.Text>{t('phoneSign.form', { form: info.formName })}</Typography.Text>
      <Typography.Text>{t('phoneSign.field', { field: info.fieldName })}</Typography.Text>
      <Typography.Text>{info.recordTitle ? t('phoneSign.record', { record: info.recordTitle }) : t('phoneSign.newRecord')}</Typography.Text>
      <Typography.Text type="secondary">{t('phoneSign.expires', { time: formatTime(info.expiresTime) })}</Typography.Text>
    </Flex>
  );
}

/** The pad, sized to the phone's width at the screen's resolution; answers the drawing as a PNG data URL. */
function SignPad({ token, onSigned }: { token: string; onSigned: () => void }) {
  const { t } = useTranslation();
  const { token: design } = theme.useToken();
  const pad = useRef<SignaturePad | null>(null);
  const [empty, setEmpty] = useState(false);
  const canvasRef = useCallback((canvas: HTMLCanvasElement | null) => {
    pad.current?.off();
    pad.current = null;
    if (!canvas) return;
    const ratio = Math.max(window.devicePixelRatio || 1, 1);
    canvas.width = (canvas.offsetWidth || 340) * ratio;
    canvas.height = (canvas.offsetHeight || PAD_HEIGHT) * ratio;
    canvas.getContext('2d')?.scale(ratio, ratio);
    pad.current = new SignaturePad(canvas);
  }, []);
  const submit = useMutation({ mutationFn: (dataUrl: string) => phoneSignApi.submit(token, dataUrl), onSuccess: onSigned });
  const handleSubmit = () => {
    if (!pad.current || pad.current.isEmpty()) return setEmpty(true);
    setEmpty(false);
    submit.mutate(pad.current.toDataURL('image/png'));
  };
  return (
    <Flex vertical gap="small">
      <Typography.Text type="secondary">{t('phoneSign.hint')}</Typography.Text>
      <canvas
        ref={canvasRef}
        aria-label={t('phoneSign.pad')}
        style={{ display: 'block', width: '100%', height: PAD_HEIGHT, border: `1px dashed ${design.colorBorder}`, borderRadius: design.borderRadius, touchAction: 'none', background: '#fff' }}
      />
      <FormErrorAlert message={empty ? t('phoneSign.empty') : submit.error?.message} />
      <Flex gap="small">
        <Button block onClick={() => pad.current?.clear()}>
          {t('phoneSign.clear')}
        </Button>
        <Button block type="primary" loading={submit.isPending} onClick={handleSubmit}>
          {t('phoneSign.submit')}
        </Button>
      </Flex>
    </Flex>
  );
}

/**
 * /entry/sign/<token>: a phone signs one hand-sign field of a PC form (docs/decisions/0114), without signing in. A
 * used, expired or unknown link says so.
 */
export function PhoneSignPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const info = useQuery({ queryKey: ['sign-link', token], queryFn: () => phoneSignApi.info(token), retry: false });
  const [done, setDone] = useState(false);
  if (done) return <Result status="success" title={t('phoneSign.doneTitle')} subTitle={t('phoneSign.doneSubtitle')} />;
  if (info.isError) return <Result status="warning" title={t('phoneSign.unusableTitle')} subTitle={info.error.message} />;
  if (!info.data) return <Skeleton active paragraph={{ rows: 4 }} />;
  return (
    <Flex vertical gap="middle">
      <Asked info={info.data} />
      <SignPad token={token} onSigned={() => setDone(true)} />
    </Flex>
  );
}
