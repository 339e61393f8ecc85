import { useState } from 'react';
import { Alert, App, Button, Empty, Flex, Popconfirm, Select, Spin, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/date-format.ts';
import { formToolKeys, formToolsApi } from './form-tools-api.ts';
import { INDEXABLE_SYSTEM_FIELDS, type IndexField } from './indexable-fields.ts';

/** 自定义索引 (domain.md §5: up to 5 indexes of 5 fields): the form's indexes, adding one on chosen fields, removing one. */
export function CustomIndexesPanel({ schemaCode, fields }: { schemaCode: string; fields: readonly IndexField[] }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string[]>([]);
  const list = useQuery({ queryKey: formToolKeys.indexes(schemaCode), queryFn: () => formToolsApi.indexes(schemaCode) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: formToolKeys.indexes(schemaCode) });
  const add = useMutation({
    mutationFn: () => formToolsApi.addIndex(schemaCode, chosen),
    onSuccess: async () => {
      setChosen([]);
      message.success(t('formTools.indexes.added'));
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (indexName: string) => formToolsApi.removeIndex(schemaCode, indexName),
    onSuccess: async () => {
      message.success(t('formTools.indexes.removed'));
      await refresh();
    },
  });

  if (list.isPending) return <Spin />;
  if (list.isError) return <Alert type="warning" showIcon title={list.error.message} />;

  const limits = list.data.limits;
  const options = [...fields, ...INDEXABLE_SYSTEM_FIELDS.map((code) => ({ code, label: t(`formTools.systemFields.${code}`) }))];
  const labelOf = (code: string) => options.find((f) => f.code.toLowerCase() === code.toLowerCase())?.label ?? code;
  const isFull = list.data.list.length >= limits.maxIndexes;
  return (
    <Flex vertical gap="middle">
      <Typography.Text type="secondary" role="note">
        {t('formTools.indexes.limits', { maxIndexes: limits.maxIndexes, maxFields: limits.maxFieldsPerIndex, count: list.data.list.length })}
      </Typography.Text>
      {list.data.list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('formTools.indexes.empty')} />
      ) : (
        <Flex vertical gap="small" role="list" aria-label={t('formTools.tabs.indexes')}>
          {list.data.list.map((index) => (
            <Flex key={index.indexName} role="listitem" align="center" gap="small" justify="space-between">
              <Flex vertical gap={4}>
                <Flex wrap gap={4}>
                  {index.fields.map((code) => (
                    <Tag key={code}>{labelOf(code)}</Tag>
                  ))}
                </Flex>
                <Typography.Text type="secondary">{t('formTools.indexes.created', { time: formatDateTime(index.createdTime) })}</Typography.Text>
              </Flex>
              <Popconfirm title={t('formTools.indexes.removeConfirm')} okText={t('formTools.indexes.remove')} onConfirm={() => remove.mutate(index.indexName)}>
                <Button type="text" danger icon={<DeleteOutlined />} loading={remove.isPending && remove.variables === index.indexName}>
                  {t('formTools.indexes.remove')}
                </Button>
              </Popconfirm>
            </Flex>
          ))}
        </Flex>
      )}
      {isFull ? (
        <Alert type="info" showIcon title={t('formTools.indexes.full')} />
      ) : (
        <Flex vertical gap="small">
          <Select
            mode="multiple"
            aria-label={t('formTools.indexes.fields')}
            placeholder={t('formTools.indexes.fieldsPlaceholder')}
            value={chosen}
            onChange={setChosen}
            maxCount={limits.maxFieldsPerIndex}
            options={options.map((f) => ({ value: f.code, label: f.label }))}
            optionFilterProp="label"
            virtual={false}
          />
          <Typography.Text type="secondary">{t('formTools.indexes.tooManyFields', { max: limits.maxFieldsPerIndex })}</Typography.Text>
          <Button icon={<PlusOutlined />} disabled={!chosen.length} loading={add.isPending} onClick={() => add.mutate()}>
            {t('formTools.indexes.add')}
          </Button>
        </Flex>
      )}
    </Flex>
  );
}
