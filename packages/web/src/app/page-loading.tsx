import { theme } from 'antd';

/**
 * What shows while the first page's module loads: a turning arc in the primary colour, the size of antd's Spin,
 * drawn as an SVG that animates itself (no Spin module on the sign-in page, docs/decisions/0084).
 */
export function PageLoading() {
  const { token } = theme.useToken();
  const size = token.controlHeightSM - 4;
  return (
    <div aria-busy="true" style={{ display: 'flex', minHeight: '100vh', alignItems: 'center', justifyContent: 'center' }}>
      <svg width={size} height={size} viewBox="0 0 20 20" aria-hidden="true">
        <circle cx="10" cy="10" r="8" fill="none" stroke={token.colorPrimaryBg} strokeWidth="2.5" />
        <path d="M10 2 a8 8 0 0 1 8 8" fill="none" stroke={token.colorPrimary} strokeWidth="2.5" strokeLinecap="round">
          <animateTransform attributeName="transform" type="rotate" from="0 10 10" to="360 10 10" dur="0.8s" repeatCount="indefinite" />
        </path>
      </svg>
    </div>
  );
}
