import { useState } from 'react';
import { Alert, Button, DatePicker, Empty, Flex, Form, Input, Popconfirm, Skeleton, Tag, Typography, theme } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { BellOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { MultiUserPicker, type PickedUnit } from '../../../components/org-picker/index.ts';
import { isApiError } from '../../../lib/api-error.ts';
import type { TaskTipDto } from './sns-api.ts';
import { useTaskTipActions, useTaskTips } from './use-record-side.ts';
import { formatDateTime } from '../../../lib/date-format.ts';

// The task tips of a record (任务提醒, form attribute enableTask; docs/decisions/0009): a reminder for chosen people
// at a time, with a text. The server stores them with a state (pending, cancelled, done); delivery comes later.

const CONTENT_MAX_LENGTH = 500;
const STATE_COLORS: Record<TaskTipDto['state'], string> = { pending: 'processing', cancelled: 'default', done: 'success' };

interface TipFormValues {
  content: string;
  remindTime: Dayjs | null;
  receivers: PickedUnit[];
}

function AddTaskTipForm({ onAdd, isSaving, onClose }: { onAdd: (values: TipFormValues) => Promise<unknown>; isSaving: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TipFormValues>();
  const handleFinish = async (values: TipFormValues) => {
    await onAdd(values);
    form.resetFields();
    onClose();
  };
  return (
    <Form form={form} layout="vertical" initialValues={{ content: '', remindTime: null, receivers: [] }} onFinish={(values) => void handleFinish(values).catch(() => {})}>
      <Form.Item name="content" label={t('formRuntimeSide.taskTips.content')} rules={[{ required: true, whitespace: true, message: t('formRuntimeSide.taskTips.contentRequired') }]}>
        <Input.TextArea maxLength={CONTENT_MAX_LENGTH} showCount rows={2} />
      </Form.Item>
      <Form.Item
        name="remindTime"
        label={t('formRuntimeSide.taskTips.remindTime')}
        rules={[
          { required: true, message: t('formRuntimeSide.taskTips.timeRequired') },
          { validator: (_, value: Dayjs | null) => (!value || value.isAfter(dayjs()) ? Promise.resolve() : Promise.reject(new Error(t('formRuntimeSide.taskTips.timePast')))) },
        ]}
      >
        <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
      </Form.Item>
      <Form.Item name="receivers" label={t('formRuntimeSide.taskTips.receivers')} rules={[{ required: true, type: 'array', min: 1, message: t('formRuntimeSide.taskTips.receiversRequired') }]}>
        <MultiUserPicker max={50} />
      </Form.Item>
      <Flex gap="small" justify="flex-end">
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={isSaving}>
          {t('formRuntimeSide.taskTips.save')}
        </Button>
      </Flex>
    </Form>
  );
}

function TaskTipItem({ tip, onCancel, onRemove }: { tip: TaskTipDto; onCancel: () => void; onRemove: () => void }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={2}>
      <Flex gap="small" align="center" wrap>
        <BellOutlined aria-hidden />
        <Typography.Text strong>
          <time dateTime={tip.remindTime}>{formatDateTime(tip.remindTime)}</time>
        </Typography.Text>
        <Tag color={STATE_COLORS[tip.state]}>{t(`formRuntimeSide.taskTips.states.${tip.state}`)}</Tag>
      </Flex>
      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{tip.content}</Typography.Paragraph>
      <Typography.Text type="secondary">
        {t('formRuntimeSide.taskTips.receiversLine', { names: tip.receivers.map((r) => r.name).join('、') })}
        {' · '}
        {t('formRuntimeSide.taskTips.createdBy', { name: tip.createdByName })}
      </Typography.Text>
      {tip.canChange && (
        <Flex gap={4}>
          {tip.state === 'pending' && (
            <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={onCancel}>
              {t('formRuntimeSide.taskTips.cancelTip')}
            </Button>
          )}
          <Popconfirm title={t('formRuntimeSide.taskTips.removeConfirm')} okText={t('formRuntimeSide.taskTips.remove')} cancelText={t('common.cancel')} okButtonProps={{ danger: true }} onConfirm={onRemove}>
            <Button type="link" size="small" danger>
              {t('formRuntimeSide.taskTips.remove')}
            </Button>
          </Popconfirm>
        </Flex>
      )}
    </Flex>
  );
}

export function TaskTipsPanel({ schemaCode, objectId }: { schemaCode: string; objectId: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const tips = useTaskTips(schemaCode, objectId);
  const actions = useTaskTipActions(schemaCode, objectId);
  const [isAdding, setIsAdding] = useState(false);

  if (tips.isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (tips.isError) {
    const message = isApiError(tips.error) ? tips.error.errorMessage : t('formRuntimeSide.taskTips.unavailable');
    return <Alert type="info" showIcon title={message} />;
  }

  const handleAdd = (values: TipFormValues) =>
    actions.add.mutateAsync({ content: values.content.trim(), remindTime: values.remindTime!.toISOString(), receiverIds: values.receivers.map((r) => r.id) });

  return (
    <Flex vertical gap="middle">
      <Flex justify="space-between" align="center">
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('formRuntimeSide.taskTips.title')}
        </Typography.Title>
        {!isAdding && (
          <Button size="small" onClick={() => setIsAdding(true)}>
            {t('formRuntimeSide.taskTips.add')}
          </Button>
        )}
      </Flex>
      {isAdding && <AddTaskTipForm onAdd={handleAdd} isSaving={actions.add.isPending} onClose={() => setIsAdding(false)} />}
      {tips.data.list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('formRuntimeSide.taskTips.empty')} />
      ) : (
        <ul aria-label={t('formRuntimeSide.taskTips.list')} style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: token.marginMD }}>
          {tips.data.list.map((tip) => (
            <li key={tip.id}>
              <TaskTipItem tip={tip} onCancel={() => actions.cancel.mutate(tip.id)} onRemove={() => actions.remove.mutate(tip.id)} />
            </li>
          ))}
        </ul>
      )}
    </Flex>
  );
}
