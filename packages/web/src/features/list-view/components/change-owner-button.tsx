import { useState } from 'react';
import { App, Button } from 'antd';
import { UserSwitchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { OrgPickerDialog } from '../../../components/org-picker/index.ts';
import { listViewApi } from '../api/list-view-api.ts';

/** 修改拥有者 on the list's selection (issue 19): pick one person, the selected records become theirs. */
export function ChangeOwnerButton({ schemaCode, objectIds, onDone }: { schemaCode: string; objectIds: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [picking, setPicking] = useState(false);
  const [saving, setSaving] = useState(false);
  return (
    <>
      <Button icon={<UserSwitchOutlined />} disabled={!objectIds.length} loading={saving} onClick={() => setPicking(true)}>
        {t('listView.changeOwner.button')}
      </Button>
      <OrgPickerDialog
        open={picking}
        kind="user"
        multiple={false}
        title={t('listView.changeOwner.title')}
        onCancel={() => setPicking(false)}
        onOk={async ([owner]) => {
          setPicking(false);
          if (!owner) return;
          setSaving(true);
          try {
            const { changed } = await listViewApi.changeOwner({ schemaCode, objectIds, ownerId: owner.id });
            message.success(t('listView.changeOwner.done', { count: changed }));
            onDone();
          } finally {
            setSaving(false);
          }
        }}
      />
    </>
  );
}
