import { useState } from 'react';
import { Button, Flex, Result, Skeleton, Typography } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { formatDateTime } from '../../../lib/date-format.ts';
import { hasToken, startSession } from '../../../lib/session.ts';
import { joinApi, type InvitationLinkInfo, type JoinByLinkResult } from '../api/join-api.ts';
import { BackToLoginButton } from '../components/back-to-login.tsx';
import { FormErrorAlert } from '../components/form-error-alert.tsx';
import { JoinForm } from '../components/join-form.tsx';
import { DEFAULT_AFTER_SIGN_IN } from '../redirect-target.ts';

function Joined({ info, result }: { info: InvitationLinkInfo; result: JoinByLinkResult }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="success"
      title={t(result.alreadyMember ? 'join.alreadyTitle' : 'join.joinedTitle', { engine: info.engineName })}
      extra={
        <Button type="primary" onClick={() => navigate(DEFAULT_AFTER_SIGN_IN, { replace: true })}>
          {t('join.enter')}
        </Button>
      }
    />
  );
}

/**
 * /entry/join/<token>: an organisation's invitation link (docs/decisions/0112). Shows the organisation and who
 * invited; the person proves a mobile number (or, signed in, uses their account) and joins. An expired or turned-off
 * link says so.
 */
export function JoinPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const info = useQuery({ queryKey: ['invitation-link', token], queryFn: () => joinApi.info(token), retry: false });
  const [withForm, setWithForm] = useState(() => !hasToken());
  const [result, setResult] = useState<JoinByLinkResult>();
  const handleJoined = (joined: JoinByLinkResult) => {
    startSession(joined);
    setResult(joined);
  };
  const signedInJoin = useMutation({ mutationFn: () => joinApi.join({ token }), onSuccess: handleJoined });

  if (info.isError) return <Result status="warning" title={t('join.unusableTitle')} subTitle={info.error.message} extra={<BackToLoginButton primary />} />;
  if (!info.data) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (result) return <Joined info={info.data} result={result} />;
  const { engineName, inviterName, departmentName, expiresTime } = info.data;

  return (
    <Flex vertical gap="middle">
      <Typography.Title level={4} style={{ margin: 0 }}>
        {inviterName ? t('join.invitedBy', { inviter: inviterName, engine: engineName }) : t('join.invited', { engine: engineName })}
      </Typography.Title>
      <Typography.Text type="secondary">
        {departmentName ? `${t('join.department', { department: departmentName })}　` : ''}
        {t('join.expires', { time: formatDateTime(expiresTime) })}
      </Typography.Text>
      {withForm ? (
        <>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {t('join.intro')}
          </Typography.Paragraph>
          <JoinForm token={token} onJoined={handleJoined} />
        </>
      ) : (
        <>
          <Typography.Paragraph style={{ margin: 0 }}>{t('join.signedInIntro')}</Typography.Paragraph>
          <FormErrorAlert message={signedInJoin.error?.message} />
          <Button type="primary" block loading={signedInJoin.isPending} onClick={() => signedInJoin.mutate()}>
            {t('join.joinSignedIn')}
          </Button>
          <Button block onClick={() => setWithForm(true)}>
            {t('join.useOtherMobile')}
          </Button>
        </>
      )}
    </Flex>
  );
}
