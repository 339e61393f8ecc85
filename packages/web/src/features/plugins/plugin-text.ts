/** A catalogue text in the page's language (the catalogue carries both). */
export function textOf(text: { 'zh-CN': string; 'en-US': string }, language: string | undefined): string {
  return language === 'en-US' ? text['en-US'] : text['zh-CN'];
}
