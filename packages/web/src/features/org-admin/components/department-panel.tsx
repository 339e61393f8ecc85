import { useState } from 'react';
import { Card, Flex, Segmented, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DepartmentDto, OrgSide } from '../api/org-admin-api.ts';
import { DepartmentTree } from './department-tree.tsx';
import { MemberPanel } from './member-panel.tsx';

const SIDES: OrgSide[] = ['inner', 'external'];

/** 部门与成员: the tree of one side (内部 or 外部组织) on the left, the selected department's members on the right. */
export function DepartmentPanel() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [side, setSide] = useState<OrgSide>('inner');
  const [selected, setSelected] = useState<DepartmentDto>();

  const handleSide = (next: OrgSide) => {
    setSide(next);
    setSelected(undefined);
  };

  return (
    <Flex gap="middle" align="start">
      <Card
        size="small"
        style={{ width: 280, flex: 'none' }}
        styles={{ body: { padding: token.paddingXS, maxHeight: 'calc(100vh - 220px)', overflow: 'auto' } }}
        title={
          <Segmented<OrgSide>
            block
            aria-label={t('orgAdmin.department.side')}
            value={side}
            onChange={handleSide}
            options={SIDES.map((value) => ({ value, label: t(`orgAdmin.department.sides.${value}`) }))}
          />
        }
      >
        <DepartmentTree key={side} side={side} selected={selected} onSelect={setSelected} />
      </Card>
      <Card size="small" style={{ flex: 1, minWidth: 0 }}>
        <MemberPanel side={side} department={selected} />
      </Card>
    </Flex>
  );
}
