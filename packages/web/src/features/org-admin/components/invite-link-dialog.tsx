import { useState } from 'react';
import { Button, Flex, Form, Modal, Radio, Typography } from 'antd';
import { LinkOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { INVITATION_LINK_DAYS } from '@tritium/shared/contracts/org/invitation-links';
import { DepartmentPicker, type PickedUnit } from '../../../components/org-picker/index.ts';
import { invitationLinkApi, invitationLinkKeys, type CreatedInvitationLink } from '../api/invitation-link-api.ts';
import { InviteLinkCreated } from './invite-link-created.tsx';
import { InviteLinkList } from './invite-link-list.tsx';

interface LinkValues {
  validDays: number;
  department: PickedUnit | null;
}

interface InviteLinkDialogProps {
  open: boolean;
  defaultDepartment?: PickedUnit;
  onClose: () => void;
}

const DEFAULT_DAYS = 7;

/**
 * 邀请链接: the Administrator chooses how long a link works and which department newcomers join, and gets a link and
 * its QR code to send; whoever opens it and proves a mobile number joins (docs/decisions/0112). Links can be turned off.
 */
export function InviteLinkDialog({ open, defaultDepartment, onClose }: InviteLinkDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<LinkValues>();
  const [created, setCreated] = useState<CreatedInvitationLink>();
  const links = useQuery({ queryKey: invitationLinkKeys.list, queryFn: invitationLinkApi.list, enabled: open });
  const refresh = () => queryClient.invalidateQueries({ queryKey: invitationLinkKeys.list });
  const create = useMutation({
    mutationFn: (values: LinkValues) => invitationLinkApi.create({ validDays: values.validDays, ...(values.department ? { departmentId: values.department.id } : {}) }),
    onSuccess: (link) => {
      setCreated(link);
      void refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: invitationLinkApi.revoke,
    onSuccess: (link) => {
      setCreated((shown) => (shown?.id === link.id ? { ...shown, ...link } : shown));
      void refresh();
    },
  });
  const handleClose = () => {
    setCreated(undefined);
    onClose();
  };

  return (
    <Modal open={open} title={t('orgAdmin.inviteLink.title')} width={760} destroyOnHidden footer={null} onCancel={handleClose}>
      <Flex vertical gap="middle">
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('orgAdmin.inviteLink.intro')}
        </Typography.Paragraph>
        <Form<LinkValues> form={form} layout="inline" initialValues={{ validDays: DEFAULT_DAYS, department: defaultDepartment ?? null }} onFinish={(values) => create.mutate(values)}>
          <Form.Item name="validDays" label={t('orgAdmin.inviteLink.validity')}>
            <Radio.Group optionType="button" options={INVITATION_LINK_DAYS.map((days) => ({ value: days, label: t(`orgAdmin.inviteLink.days${days}`) }))} />
          </Form.Item>
          <Form.Item name="department" label={t('orgAdmin.inviteLink.department')} tooltip={t('orgAdmin.inviteLink.departmentHint')}>
            <DepartmentPicker scope="inner" />
          </Form.Item>
          <Button type="primary" htmlType="submit" icon={<LinkOutlined />} loading={create.isPending}>
            {t('orgAdmin.inviteLink.create')}
          </Button>
        </Form>
        {created && <InviteLinkCreated link={created} isRevoking={revoke.isPending} onRevoke={() => revoke.mutateAsync(created.id)} />}
        <InviteLinkList links={links.data?.list ?? []} isLoading={links.isLoading} onRevoke={(id) => revoke.mutateAsync(id)} />
      </Flex>
    </Modal>
  );
}
