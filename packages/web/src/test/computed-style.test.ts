import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';

// The tests' computed style sees only the rules that can hide an element or take its pointer (computed-style.ts):
// what hides an element in the page hides it in the tests, and a later rule that shows it again still counts.
describe('computed style in the web tests', () => {
  it('hides what a stylesheet hides, shows what a later rule shows again, and ignores the other rules', () => {
    const style = document.createElement('style');
    style.textContent = '.tip { color: red; padding: 4px } .tip-hidden { display: none } .tip-hidden.tip-open { display: inline-block } .faded { visibility: hidden }';
    document.head.append(style);
    document.body.innerHTML = '<button class="tip tip-hidden">一</button><button class="tip">二</button><span class="faded"><button>三</button></span>';
    try {
      expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['二']);
      const first = screen.getByText('一');
      expect(getComputedStyle(first).display).toBe('none');
      first.classList.add('tip-open');
      expect(getComputedStyle(first).display).toBe('inline-block');
      expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['一', '二']);
      // The rules that cannot hide anything are left out of the match.
      expect(getComputedStyle(first).color).not.toBe('red');
    } finally {
      style.remove();
    }
  });
});
