import { Flex, theme } from 'antd';
import { useTranslation } from 'react-i18next';

/** The product mark: a small tile and the name. */
export function ProductMark({ size = 'large' }: { size?: 'large' | 'small' }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const tile = size === 'large' ? 32 : 24;
  return (
    <Flex align="center" gap={token.marginXS}>
      <span
        aria-hidden
        style={{
          width: tile,
          height: tile,
          borderRadius: token.borderRadius,
          background: token.colorPrimary,
          color: token.colorTextLightSolid,
          display: 'inline-flex',
          alignItems: 'center',
          justifyContent: 'center',
          fontWeight: 700,
          fontSize: tile * 0.55,
        }}
      >
        T
      </span>
      {/* A span, not antd's Typography: the mark is on the sign-in page every visitor downloads (decisions/0036). */}
      <span style={{ fontWeight: token.fontWeightStrong, color: token.colorText, fontSize: size === 'large' ? token.fontSizeHeading4 : token.fontSizeLG }}>
        {t('app.name')}
      </span>
    </Flex>
  );
}
