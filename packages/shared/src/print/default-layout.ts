import { contentSize, PageSetup, type PrintElement, type PrintLayout } from './template.ts';

// With no template the form's own layout prints (issue 24): its fields two to a row in the form's order, then its
// sub-tables, then the approval trace of a workflow form — built as a template, so one renderer draws both. The
// fields grow with their text (a multi-line text's second line pushes the next row down; docs/decisions/0068).

export interface DefaultLayoutForm {
  title: string;
  /** Main-table fields in the form's order (codes). */
  fields: readonly string[];
  /** Sub-tables in the form's order (codes). */
  grids: readonly string[];
  isWorkflow: boolean;
}

const ROW = 8;

export function defaultLayoutOf(form: DefaultLayoutForm): PrintLayout {
  const page = PageSetup.parse({});
  const { width, height } = contentSize(page);
  const half = width / 2;
  const elements: PrintElement[] = [
    { id: 'title', type: 'label', text: form.title, x: 0, y: 0, width, height: 10, fontSize: 16, bold: true, align: 'center' },
  ];
  let y = 14;
  form.fields.forEach((code, i) => {
    elements.push({ id: `f${i}`, type: 'field', field: code, showLabel: true, grow: true, x: i % 2 ? half : 0, y, width: half, height: ROW, fontSize: 10, bold: false, align: 'left' });
    if (i % 2 || i === form.fields.length - 1) y += ROW;
  });
  for (const [i, code] of form.grids.entries()) {
    y += 3;
    elements.push({ id: `g${i}`, type: 'subTable', field: code, columns: [], x: 0, y, width, height: 12, fontSize: 9 });
    y += 12;
  }
  if (form.isWorkflow) {
    y += 3;
    elements.push({ id: 'trace', type: 'approvalTrace', showSignature: true, x: 0, y, width, height: 12, fontSize: 9 });
    y += 12;
  }
  elements.push({ id: 'page', type: 'pageNumber', format: '第 {page} 页 / 共 {pages} 页', x: half - 30, y: height - 6, width: 60, height: 6, fontSize: 8 });
  return { page, elements };
}
