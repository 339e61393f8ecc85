import { useEffect, useState } from 'react';
import { Alert, App, Button, Flex, Form, Input, Popconfirm, Radio, Select, Switch, Typography } from 'antd';
import { CopyOutlined, ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { contracts } from '@tritium/shared';
import { UserPicker, type PickedUnit } from '../../components/org-picker/index.ts';
import { externalFormApi, externalFormKeys } from './external-form-api.ts';

export type LinkField = { code: string; label: string; type: string };

/** Query fields are matched exactly: short texts, numbers and single choices (the server holds the same rule). */
const QUERYABLE = new Set(['textBox', 'number', 'dropDown', 'radioList']);

interface Settings {
  enabled: boolean;
  access: contracts.OpenQueryAccess;
  password: string;
  queryFields: string[];
  resultFields: string[];
  mobileField: string | null;
  owner: PickedUnit | null;
}

/** 公开查询 (issue 19, OpenQuery): the form's query page — access, query and result fields, owner, address. */
export function OpenQueryPanel({ schemaCode, fields }: { schemaCode: string; fields: LinkField[] }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const query = useQuery({ queryKey: externalFormKeys.query(schemaCode), queryFn: () => externalFormApi.openQuery(schemaCode) });
  const page = query.data?.query ?? null;
  const [s, setS] = useState<Settings>({ enabled: true, access: 'public', password: '', queryFields: [], resultFields: [], mobileField: null, owner: null });
  useEffect(() => {
    if (page) setS({ enabled: page.enabled, access: page.access, password: '', queryFields: page.queryFields, resultFields: page.resultFields, mobileField: page.mobileField, owner: { id: page.ownerId, name: page.ownerName } });
  }, [page]);
  const done = (result: contracts.OpenQueryResult) => {
    client.setQueryData(externalFormKeys.query(schemaCode), result);
    void message.success(t('externalForm.saved'));
  };
  const save = useMutation({
    mutationFn: () =>
      externalFormApi.saveOpenQuery({
        schemaCode,
        enabled: s.enabled,
        access: s.access,
        ...(s.access !== 'password' ? { password: null } : s.password ? { password: s.password } : {}),
        queryFields: s.queryFields,
        resultFields: s.resultFields,
        mobileField: s.access === 'identity' ? s.mobileField : null,
        ownerId: s.owner?.id ?? '',
      }),
    onSuccess: done,
  });
  const reset = useMutation({ mutationFn: () => externalFormApi.resetOpenQuery(schemaCode), onSuccess: done });
  const url = page ? new URL(page.path, window.location.origin).toString() : '';
  const options = (list: LinkField[]) => list.map((f) => ({ value: f.code, label: f.label }));
  const needsPassword = s.access === 'password' && !s.password && !page?.hasPassword;
  const ready = !!s.owner && s.queryFields.length > 0 && s.resultFields.length > 0 && (s.access !== 'identity' || !!s.mobileField) && !needsPassword;
  return (
    <Flex vertical gap="middle">
      <Alert type="info" showIcon title={t('externalForm.query.intro')} />
      {page ? (
        <Flex vertical gap={4}>
          <Typography.Text strong>{t('externalForm.query.link')}</Typography.Text>
          <Flex gap="small">
            <Input readOnly value={url} aria-label={t('externalForm.query.link')} />
            <Button icon={<CopyOutlined />} aria-label={t('externalForm.copy')} onClick={() => void navigator.clipboard?.writeText(url).then(() => message.success(t('externalForm.copied')))} />
            <Popconfirm title={t('externalForm.resetConfirm')} onConfirm={() => reset.mutate()}>
              <Button icon={<ReloadOutlined />} loading={reset.isPending}>{t('externalForm.reset')}</Button>
            </Popconfirm>
          </Flex>
        </Flex>
      ) : (
        <Typography.Text type="secondary">{t('externalForm.notCreated')}</Typography.Text>
      )}
      <Form layout="vertical" component={false}>
        <Form.Item label={t('externalForm.query.enabled')}>
          <Switch aria-label={t('externalForm.query.enabled')} checked={s.enabled} onChange={(enabled) => setS({ ...s, enabled })} />
        </Form.Item>
        <Form.Item label={t('externalForm.query.access')}>
          <Radio.Group value={s.access} onChange={(e) => setS({ ...s, access: e.target.value })}
            options={contracts.OPEN_QUERY_ACCESS.map((a) => ({ value: a, label: t(`externalForm.query.accessNames.${a}`) }))} />
        </Form.Item>
        {s.access === 'password' && (
          <Form.Item label={t('externalForm.password')} extra={page?.hasPassword ? t('externalForm.passwordKeep') : undefined} required>
            <Input.Password aria-label={t('externalForm.password')} maxLength={32} value={s.password} onChange={(e) => setS({ ...s, password: e.target.value })} />
          </Form.Item>
        )}
        {s.access === 'identity' && (
          <Form.Item label={t('externalForm.query.mobileField')} extra={t('externalForm.query.mobileFieldHelp')} required>
            <Select aria-label={t('externalForm.query.mobileField')} value={s.mobileField} onChange={(mobileField) => setS({ ...s, mobileField })} options={options(fields.filter((f) => f.type === 'textBox'))} />
          </Form.Item>
        )}
        <Form.Item label={t('externalForm.query.queryFields')} extra={t('externalForm.query.queryFieldsHelp')} required>
          <Select mode="multiple" maxCount={5} aria-label={t('externalForm.query.queryFields')} value={s.queryFields} onChange={(queryFields) => setS({ ...s, queryFields })} options={options(fields.filter((f) => QUERYABLE.has(f.type)))} />
        </Form.Item>
        <Form.Item label={t('externalForm.query.resultFields')} required>
          <Select mode="multiple" maxCount={30} aria-label={t('externalForm.query.resultFields')} value={s.resultFields} onChange={(resultFields) => setS({ ...s, resultFields })} options={options(fields)} />
        </Form.Item>
        <Form.Item label={t('externalForm.query.owner')} extra={t('externalForm.query.ownerHelp')} required>
          <UserPicker value={s.owner} onChange={(owner) => setS({ ...s, owner })} aria-label={t('externalForm.query.owner')} />
        </Form.Item>
      </Form>
      <Button type="primary" disabled={!ready} loading={save.isPending} onClick={() => save.mutate()}>{t('externalForm.save')}</Button>
    </Flex>
  );
}
