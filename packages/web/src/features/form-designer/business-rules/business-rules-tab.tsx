import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Empty, Flex, List, Tag, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { contracts } from '@tritium/shared';
import { useDesignerContext } from '../hooks/designer-context.ts';
import { businessRuleKeys, businessRulesApi } from './business-rules-api.ts';
import { RuleEditor, type Rule } from './rule-editor.tsx';
import { sourceFieldsOf } from '../../rule-values/source-fields.ts';

const newId = () => `R${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/**
 * 业务规则 (docs/decisions/0015): the form's rules in the order they run on effective (void runs them bottom to top).
 * Saved as a draft here; publishing the form makes them run.
 */
export function BusinessRulesTab({ schemaCode }: { schemaCode: string }) {
  const { t } = useTranslation();
  const { state } = useDesignerContext();
  const client = useQueryClient();
  const loaded = useQuery({ queryKey: businessRuleKeys.rules(schemaCode), queryFn: () => businessRulesApi.load(schemaCode) });
  const [rules, setRules] = useState<Rule[] | null>(null);
  const [editing, setEditing] = useState<{ index: number; rule: Rule } | null>(null);
  const [issues, setIssues] = useState<contracts.BusinessRuleIssue[]>([]);
  const fields = useMemo(() => sourceFieldsOf(state.controls), [state.controls]);
  useEffect(() => {
    if (loaded.data && rules === null) setRules(loaded.data.draft as Rule[]);
  }, [loaded.data, rules]);
  const save = useMutation({
    mutationFn: (next: Rule[]) => businessRulesApi.save({ schemaCode, rules: next }),
    onSuccess: (result) => {
      setIssues(result.issues);
      void client.invalidateQueries({ queryKey: businessRuleKeys.rules(schemaCode) });
    },
  });
  const list = rules ?? [];
  const commit = (next: Rule[]) => {
    setRules(next);
    save.mutate(next);
  };
  const move = (i: number, by: number) => {
    const next = [...list];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    commit(next);
  };
  const add = () =>
    setEditing({ index: list.length, rule: { id: newId(), name: t('businessRules.defaultName', { n: list.length + 1 }), enabled: true, on: 'effective', action: 'insert', targetSchemaCode: '', forEachRow: null, conditions: [], mappings: [] } });

  return (
    <Flex vertical gap="small">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('businessRules.hint')}
      </Typography.Paragraph>
      {issues.length > 0 && <Alert type="warning" showIcon message={t('businessRules.issues')} description={issues.map((i) => i.message).join('；')} />}
      {save.isError && <Alert type="error" showIcon message={t('businessRules.saveFailed')} />}
      <Button icon={<PlusOutlined />} onClick={add} disabled={rules === null}>
        {t('businessRules.add')}
      </Button>
      {list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('businessRules.empty')} />
      ) : (
        <List
          size="small"
          dataSource={list}
          renderItem={(rule, i) => (
            <List.Item
              actions={[
                <Button key="up" type="text" size="small" icon={<ArrowUpOutlined />} aria-label={t('businessRules.up')} disabled={i === 0} onClick={() => move(i, -1)} />,
                <Button key="down" type="text" size="small" icon={<ArrowDownOutlined />} aria-label={t('businessRules.down')} disabled={i === list.length - 1} onClick={() => move(i, 1)} />,
                <Button key="edit" type="text" size="small" icon={<EditOutlined />} aria-label={t('businessRules.edit')} onClick={() => setEditing({ index: i, rule })} />,
                <Button key="del" type="text" size="small" icon={<DeleteOutlined />} aria-label={t('businessRules.remove')} onClick={() => commit(list.filter((_, j) => j !== i))} />,
              ]}
            >
              <Flex vertical style={{ minWidth: 0 }}>
                <Typography.Text ellipsis delete={rule.enabled === false}>{rule.name}</Typography.Text>
                <Flex gap={4} wrap>
                  <Tag color={rule.on === 'effective' ? 'green' : 'red'}>{t(`businessRules.trigger.${rule.on}`)}</Tag>
                  <Tag>{t(`businessRules.actions.${rule.action}`)}</Tag>
                </Flex>
              </Flex>
            </List.Item>
          )}
        />
      )}
      <RuleEditor
        rule={editing?.rule ?? null}
        fields={fields}
        onChange={(rule) => setEditing((current) => (current ? { ...current, rule } : current))}
        onCancel={() => setEditing(null)}
        onOk={(rule) => {
          const next = [...list];
          next[editing!.index] = rule;
          commit(next);
          setEditing(null);
        }}
      />
    </Flex>
  );
}
