import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { theme } from 'antd';

export interface EntryTab {
  key: string;
  label: string;
  children: ReactNode;
}

/**
 * The login home's tabs, drawn with the theme's tokens. antd's Tabs brings its overflow menu, dropdown and
 * measuring code, about 22 kB gzip on the one page every visitor downloads (docs/decisions/0036). Same roles as
 * antd's (tablist, tab, tabpanel named by its tab), arrow keys move between tabs, and a visited panel stays mounted
 * (hidden) so what was typed survives a switch.
 */
export function EntryTabs({ items }: { items: EntryTab[] }) {
  const { token } = theme.useToken();
  const id = useId();
  const [active, setActive] = useState(items[0]?.key);
  const [visited, setVisited] = useState(() => new Set([items[0]?.key]));
  const select = (key: string) => {
    setActive(key);
    setVisited((keys) => (keys.has(key) ? keys : new Set(keys).add(key)));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = items[(items.findIndex((item) => item.key === active) + step + items.length) % items.length];
    select(next.key);
    document.getElementById(`${id}-tab-${next.key}`)?.focus();
  };
  return (
    <div>
      <div
        role="tablist"
        onKeyDown={onKeyDown}
        style={{ display: 'flex', gap: token.marginLG, borderBottom: `${token.lineWidth}px solid ${token.colorBorderSecondary}`, marginBottom: token.margin }}
      >
        {items.map((item) => {
          const selected = item.key === active;
          return (
            <button
              key={item.key}
              id={`${id}-tab-${item.key}`}
              type="button"
              role="tab"
              aria-selected={selected}
              aria-controls={`${id}-panel-${item.key}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => select(item.key)}
              style={{
                padding: `${token.paddingSM}px 0`,
                marginBottom: -token.lineWidth,
                border: 'none',
                borderBottom: `${token.lineWidthBold}px solid ${selected ? token.colorPrimary : 'transparent'}`,
                background: 'none',
                cursor: 'pointer',
                font: 'inherit',
                fontSize: token.fontSize,
                color: selected ? token.colorPrimary : token.colorText,
              }}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {items
        .filter((item) => visited.has(item.key))
        .map((item) => (
          <div key={item.key} id={`${id}-panel-${item.key}`} role="tabpanel" aria-labelledby={`${id}-tab-${item.key}`} hidden={item.key !== active}>
            {item.children}
          </div>
        ))}
    </div>
  );
}
