import CSSComputedStyle from 'happy-dom/lib/css/declaration/computed-style/CSSComputedStyle.js';

// What the tests read of computed style: whether an element is hidden (getByRole's accessible names and its hidden
// filter, toBeVisible) and whether it takes the pointer (user-event). happy-dom computes a style by matching every rule
// of every sheet in the document against the element and its ancestors, and forgets it at the next stylesheet or DOM
// change; antd's CSS-in-JS puts thousands of rules in the document, so that matching was about half of a designer
// test's time (docs/testing.md "Computed style in the web tests"). The rules that cannot change those properties are
// left out of the match: a sheet is seen as its rules that name one of them (the grouping rules whole).
const READ = /display|visibility|opacity|pointer-events/;

interface Rule {
  cssText: string;
}
interface Sheet {
  cssRules: ArrayLike<Rule>;
}

const kept = new WeakMap<Sheet, { count: number; first: Rule | undefined; rules: Rule[] }>();

function relevant(sheet: Sheet): { cssRules: Rule[] } {
  const all = sheet.cssRules;
  const known = kept.get(sheet);
  if (known && known.count === all.length && known.first === all[0]) return { cssRules: known.rules };
  const rules: Rule[] = [];
  for (let i = 0; i < all.length; i++) if (READ.test(all[i]!.cssText)) rules.push(all[i]!);
  kept.set(sheet, { count: all.length, first: all[0], rules });
  return { cssRules: rules };
}

// A private method of happy-dom's (21.x): an upgrade that renames it fails here loudly rather than slow down quietly.
const prototype = CSSComputedStyle.prototype as unknown as { getStyleSheets(root: unknown): Sheet[] };
const original = prototype.getStyleSheets;
if (typeof original !== 'function') throw new Error('happy-dom no longer has CSSComputedStyle.getStyleSheets: see src/test/computed-style.ts');
prototype.getStyleSheets = function (root: unknown) {
  return original.call(this, root).map(relevant);
};
