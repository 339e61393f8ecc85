import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import type { zhCN } from '../../../locales/zh-CN.ts';

/** A tab whose feature has not landed yet says what it will show. */
export function PhonePending({ text }: { text: keyof typeof zhCN.workbench.pending }) {
  const { t } = useTranslation();
  return (
    <Empty
      style={{ paddingTop: 96, paddingInline: 24 }}
      description={
        <>
          <strong>{t(`workbench.phone.pendingTitle.${text}`)}</strong>
          <br />
          {t(`workbench.pending.${text}`)}
        </>
      }
    />
  );
}
