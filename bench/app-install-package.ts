import { contracts } from '@tritium/shared';
import { currentSchemaVersion } from '../packages/server/src/modules/app-package/package-format.ts';

// The package the install benches install (docs/decisions/0130): a 50-form app — one customer form and 49 forms of
// 10 fields each with an association to it — with 10,000 sample records (200 a form, each naming a customer unless
// BENCH_NO_REF is set). BENCH_INSTALL_FORMS and BENCH_INSTALL_RECORDS change the sizes.

export const FORMS = Number(process.env.BENCH_INSTALL_FORMS ?? 50);
export const RECORDS = Number(process.env.BENCH_INSTALL_RECORDS ?? 10_000);

/** The package document: customers first, then forms referring to them; the records spread evenly. */
export function benchPackage(): contracts.AppPackageInput {
  const perForm = Math.floor(RECORDS / FORMS);
  const customers = Array.from({ length: perForm }, (_, i) => ({ values: { $id: `c${i}`, Title: `客户${i}`, City: ['北京', '上海', '广州'][i % 3] } }));
  const forms: contracts.AppPackageInput['forms'] = [
    { code: 'F0', definition: { attributes: { displayName: '客户' }, controls: [{ type: 'textBox', code: 'Title', options: { displayName: '名称' } }, { type: 'dropDown', code: 'City', options: { displayName: '城市', defaultItems: ['北京', '上海', '广州'] } }] } as never, samples: customers },
  ];
  for (let f = 1; f < FORMS; f++) {
    forms.push({
      code: `F${f}`,
      definition: {
        attributes: { displayName: `业务单${f}` },
        controls: [
          ...Array.from({ length: 4 }, (_, i) => ({ type: 'textBox', code: `T${i}`, options: { displayName: `文本${i}` } })),
          ...Array.from({ length: 3 }, (_, i) => ({ type: 'number', code: `N${i}`, options: { displayName: `数字${i}`, decimalPlaces: 2 } })),
          { type: 'dateTime', code: 'Day', options: { displayName: '日期' } },
          { type: 'checkbox', code: 'Ok', options: { displayName: '完成' } },
          { type: 'associationQuery', code: 'Customer', options: { displayName: '客户', schemaCode: 'F0' } },
        ],
      } as never,
      samples: Array.from({ length: perForm }, (_, i) => ({
        values: { T0: `单据${f}-${i}`, T1: `地址${i % 100}`, T2: 'abc', T3: `备注${i}`, N0: i, N1: i * 1.5, N2: 3.25, Day: `2026-0${1 + (i % 9)}-1${i % 10}T02:00:00.000Z`, Ok: i % 2 === 0, ...(process.env.BENCH_NO_REF ? {} : { Customer: `c${i % perForm}` }) },
      })),
    });
  }
  return {
    formatVersion: contracts.APP_PACKAGE_FORMAT_VERSION,
    schemaVersion: currentSchemaVersion(),
    app: { code: 'BenchApp', name: '安装压测应用' },
    nodes: forms.map((f, i) => ({ code: f.code, parentCode: 'BenchApp', name: i === 0 ? '客户' : `业务单${i}`, nodeType: 200, sortKey: i })),
    forms,
  };
}

