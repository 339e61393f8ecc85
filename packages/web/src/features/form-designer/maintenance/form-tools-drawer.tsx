import { useState } from 'react';
import { Drawer, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { CustomIndexesPanel } from './custom-indexes-panel.tsx';
import { SeqNoPanel } from './seq-no-panel.tsx';
import { RollupRecomputePanel } from './rollup-recompute-panel.tsx';
import type { IndexField } from './indexable-fields.ts';

export type FormToolTab = 'indexes' | 'seqNo' | 'rollup';

interface FormToolsDrawerProps {
  schemaCode: string;
  /** The form's own fields an index may use (system fields are added by the panel). */
  fields: readonly IndexField[];
  /** The display name of the form's sequence-number control, if it has one. */
  seqNoName?: string;
  initialTab?: FormToolTab;
  onClose: () => void;
}

/** 数据维护: custom indexes, the sequence number and rollup recompute of one form, for its app's administrators. */
export function FormToolsDrawer({ schemaCode, fields, seqNoName, initialTab = 'indexes', onClose }: FormToolsDrawerProps) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<FormToolTab>(initialTab);
  return (
    <Drawer open title={t('formTools.title')} size={560} onClose={onClose}>
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as FormToolTab)}
        items={[
          { key: 'indexes', label: t('formTools.tabs.indexes'), children: <CustomIndexesPanel schemaCode={schemaCode} fields={fields} /> },
          { key: 'seqNo', label: t('formTools.tabs.seqNo'), children: <SeqNoPanel schemaCode={schemaCode} controlName={seqNoName} /> },
          { key: 'rollup', label: t('formTools.tabs.rollup'), children: <RollupRecomputePanel schemaCode={schemaCode} /> },
        ]}
      />
    </Drawer>
  );
}
