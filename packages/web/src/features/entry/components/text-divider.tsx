import type { ReactNode } from 'react';
import { theme } from 'antd';

/**
 * A line with a word in its middle, as antd's plain Divider with text draws it, from the theme's tokens: the sign-in
 * page's one divider is not worth the Divider module (docs/decisions/0084).
 */
export function TextDivider({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  const rail = { width: '50%', borderBlockStart: `${token.lineWidth}px solid ${token.colorSplit}` };
  return (
    <div role="separator" style={{ display: 'flex', alignItems: 'center', margin: `${token.margin}px 0`, whiteSpace: 'nowrap', textAlign: 'center' }}>
      <span style={rail} />
      <span style={{ display: 'inline-block', padding: '0 1em' }}>{children}</span>
      <span style={rail} />
    </div>
  );
}
