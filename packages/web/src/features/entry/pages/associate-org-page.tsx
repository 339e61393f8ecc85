import { useState } from 'react';
import { Alert, Button, Flex, Form, Input, Radio, Result, Skeleton, Typography } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { readGlobalQueryParams } from '@tritium/shared/constants/query-params';
import { hasToken, setEngineCode } from '../../../lib/session.ts';
import { associatedOrgEntryApi, type AssociatedOrgDto } from '../api/associated-org-api.ts';
import { BackToLoginButton } from '../components/back-to-login.tsx';
import { FormErrorAlert } from '../components/form-error-alert.tsx';

/** The link's code (`associatedCode`, calls.md §2) of the page's address. */
function useAssociatedCode(): string {
  return (readGlobalQueryParams(useLocation().search).associatedCode ?? '').trim();
}

/** Signed out: sign in (or register) first, then come back to this very page. */
function SignInFirst() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const back = encodeURIComponent(`${pathname}${search}`);
  return (
    <Result
      status="info"
      title={t('assOrg.signInTitle')}
      subTitle={t('assOrg.signInHint')}
      extra={[
        <Button key="in" type="primary" onClick={() => navigate(`/entry/?redirectUrl=${back}`)}>
          {t('assOrg.signIn')}
        </Button>,
        <Button key="up" onClick={() => navigate(`/entry/register?redirectUrl=${back}`)}>
          {t('assOrg.register')}
        </Button>,
      ]}
    />
  );
}

/** Accepted: the partner's administrator goes on to choose who of their people take part. */
function Accepted({ association }: { association: AssociatedOrgDto }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const chooseMembers = () => {
    setEngineCode(association.partnerEngineCode!);
    navigate('/admin/associated-org');
  };
  return (
    <Result
      status="success"
      title={t('assOrg.acceptedTitle', { host: association.hostEngineName })}
      subTitle={t('assOrg.acceptedHint', { partner: association.partnerEngineName })}
      extra={
        <Button type="primary" onClick={chooseMembers}>
          {t('assOrg.chooseMembers')}
        </Button>
      }
    />
  );
}

function UnusableLink({ message }: { message?: string }) {
  const { t } = useTranslation();
  return <Result status="warning" title={t('assOrg.unusableTitle')} subTitle={message ?? t('assOrg.unusableHint')} extra={<BackToLoginButton primary />} />;
}

/**
 * /entry/ass-org?associatedCode=…: a host invites the person's organisation to be associated. They pick one of the
 * organisations they administer and accept, or go to /entry/make-org to create one (docs/decisions/0091).
 */
export function AssociateOrgPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const code = useAssociatedCode();
  const signedIn = hasToken();
  const info = useQuery({ queryKey: ['associated-code', code], queryFn: () => associatedOrgEntryApi.codeInfo(code), enabled: signedIn && !!code, retry: false });
  const [engineCode, setChosen] = useState<string>();
  const accept = useMutation({ mutationFn: associatedOrgEntryApi.accept });

  if (!code) return <UnusableLink />;
  if (!signedIn) return <SignInFirst />;
  if (info.isError) return <UnusableLink message={info.error.message} />;
  if (!info.data) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (accept.data) return <Accepted association={accept.data} />;

  const choices = info.data.organisations.filter((o) => !o.isHost);
  const open = choices.filter((o) => !o.isAssociated);
  const chosen = engineCode ?? (open.length === 1 ? open[0].engineCode : undefined);
  return (
    <Flex vertical gap="middle">
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('assOrg.invitedBy', { host: info.data.hostEngineName })}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('assOrg.explain', { host: info.data.hostEngineName })}
      </Typography.Paragraph>
      {choices.length ? (
        <Radio.Group aria-label={t('assOrg.chooseOrg')} value={chosen} onChange={(e) => setChosen(e.target.value)}>
          <Flex vertical gap="small">
            {choices.map((o) => (
              <Radio key={o.engineCode} value={o.engineCode} disabled={o.isAssociated}>
                {o.engineName}
                {o.isAssociated ? <Typography.Text type="secondary">{t('assOrg.alreadyAssociated')}</Typography.Text> : null}
              </Radio>
            ))}
          </Flex>
        </Radio.Group>
      ) : (
        <Alert type="info" showIcon title={t('assOrg.noOrg')} />
      )}
      <FormErrorAlert message={accept.error?.message} />
      <Button type="primary" block disabled={!chosen} loading={accept.isPending} onClick={() => accept.mutate({ associatedCode: code, engineCode: chosen! })}>
        {t('assOrg.accept')}
      </Button>
      <Button block onClick={() => navigate(`/entry/make-org?associatedCode=${encodeURIComponent(code)}`)}>
        {t('assOrg.makeOrg')}
      </Button>
    </Flex>
  );
}

/** /entry/make-org?associatedCode=…: creates an organisation (its creator is its Administrator) and accepts with it. */
export function MakeOrgPage() {
  const { t } = useTranslation();
  const code = useAssociatedCode();
  const [form] = Form.useForm<{ engineName: string }>();
  const make = useMutation({ mutationFn: associatedOrgEntryApi.makeOrg });

  if (!code) return <UnusableLink />;
  if (!hasToken()) return <SignInFirst />;
  if (make.data) return <Accepted association={make.data.association} />;
  return (
    <Form form={form} name="makeOrg" layout="vertical" requiredMark={false} onFinish={(v) => make.mutate({ associatedCode: code, engineName: v.engineName.trim() })}>
      <Typography.Paragraph type="secondary">{t('makeOrg.intro')}</Typography.Paragraph>
      <Form.Item name="engineName" label={t('makeOrg.engineName')} rules={[{ required: true, whitespace: true, message: t('makeOrg.engineNameRequired') }, { max: 50 }]}>
        <Input autoFocus maxLength={50} placeholder={t('makeOrg.engineNamePlaceholder')} />
      </Form.Item>
      <FormErrorAlert message={make.error?.message} />
      <Button type="primary" htmlType="submit" block loading={make.isPending}>
        {t('makeOrg.submit')}
      </Button>
    </Form>
  );
}
