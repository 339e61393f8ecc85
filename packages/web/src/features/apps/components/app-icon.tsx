import { theme } from 'antd';
import { colorOf, iconOf } from '../app-appearance.ts';

interface AppIconProps {
  node: { icon: string; iconColor: string; nodeType: number };
  size?: number;
}

/** An app's (or node's) icon, white on its colour in a rounded square. */
export function AppIcon({ node, size = 28 }: AppIconProps) {
  const { token } = theme.useToken();
  const Icon = iconOf(node);
  return (
    <span
      aria-hidden
      style={{
        display: 'inline-flex',
        flex: 'none',
        alignItems: 'center',
        justifyContent: 'center',
        width: size,
        height: size,
        borderRadius: Math.round(size / 4),
        background: colorOf(node),
        color: token.colorWhite,
        fontSize: Math.round(size * 0.55),
      }}
    >
      <Icon />
    </span>
  );
}
