import { useRef } from 'react';
import { Button, Dropdown, Flex, Input } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ValueOption } from '../../rule-values/value-input.tsx';

interface TemplateInputProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The values a placeholder may name: `Code`, `Grid.Code`, `S1.Code`. */
  sources: ValueOption[];
  rows?: number;
  maxLength: number;
}

/** A text with `{Code}` placeholders (fillTemplate on the server) and a 插入字段 menu that puts one at the cursor. */
export function TemplateInput({ id, label, value, onChange, sources, rows, maxLength }: TemplateInputProps) {
  const { t } = useTranslation();
  const cursor = useRef<number | null>(null);
  const remember = (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => (cursor.current = e.currentTarget.selectionStart);
  const insert = (code: string) => {
    const at = cursor.current ?? value.length;
    const next = `${value.slice(0, at)}{${code}}${value.slice(at)}`;
    cursor.current = at + code.length + 2;
    onChange(next.slice(0, maxLength));
  };
  const common = { id, 'aria-label': label, value, maxLength, onSelect: remember, onKeyUp: remember, onClick: remember };
  return (
    <Flex vertical gap={4}>
      {rows ? (
        <Input.TextArea {...common} autoSize={{ minRows: rows, maxRows: 12 }} onChange={(e) => { remember(e); onChange(e.target.value); }} />
      ) : (
        <Input {...common} onChange={(e) => { remember(e); onChange(e.target.value); }} />
      )}
      <Dropdown
        trigger={['click']}
        menu={{ items: sources.map((s) => ({ key: s.value, label: s.label })), onClick: ({ key }) => insert(key), style: { maxHeight: 320, overflow: 'auto' } }}
      >
        <Button size="small" type="link" icon={<PlusOutlined />} style={{ alignSelf: 'flex-start', paddingInline: 0 }} aria-label={t('automation.step.insertFieldInto', { name: label })}>
          {t('automation.step.insertField')}
        </Button>
      </Dropdown>
    </Flex>
  );
}
