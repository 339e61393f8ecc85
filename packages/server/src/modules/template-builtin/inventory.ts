import { c, dayOf, designForm, designViews, newApp, newBoard, newForm, submitRecord, type TemplateBuilder } from './build-kit.ts';

// 进销存: products, purchase orders and sales orders with sub-tables of lines. Each order's lines become stock moves
// when it takes effect (a business rule per row; removing the order removes them), and each product rolls up its
// moves: purchased, sold, and the stock between them. A stock list and a dashboard (docs/decisions/0132).

/** Products: code, name, category, unit, purchase price, sale price, safety stock. */
export const PRODUCTS: [string, string, string, string, number, number, number][] = [
  ['SP001', '无线鼠标', '电脑配件', '个', 35, 69, 20],
  ['SP002', '机械键盘', '电脑配件', '个', 180, 299, 10],
  ['SP003', '27英寸显示器', '显示设备', '台', 980, 1399, 5],
  ['SP004', 'USB-C 扩展坞', '电脑配件', '个', 120, 199, 10],
  ['SP005', '降噪耳机', '音频设备', '副', 260, 429, 8],
  ['SP006', '蓝牙音箱', '音频设备', '个', 90, 159, 8],
  ['SP007', '笔记本支架', '办公配件', '个', 45, 89, 15],
  ['SP008', '高清网络摄像头', '显示设备', '个', 150, 249, 6],
];

type Line = [number, number, number];
/** Purchase orders: supplier, days from the install day, lines [product index, quantity, unit price]. */
export const PURCHASES: { supplier: string; day: number; lines: Line[] }[] = [
  { supplier: '深圳市联达电子有限公司', day: -40, lines: [[0, 100, 35], [1, 40, 180], [3, 50, 120]] },
  { supplier: '苏州华显科技有限公司', day: -35, lines: [[2, 20, 980], [7, 30, 150]] },
  { supplier: '东莞声悦音频有限公司', day: -30, lines: [[4, 25, 260], [5, 40, 90]] },
  { supplier: '宁波优品办公用品有限公司', day: -25, lines: [[6, 60, 45]] },
  { supplier: '深圳市联达电子有限公司', day: -10, lines: [[0, 50, 34], [3, 20, 118]] },
];
/** Sales orders: customer, days from the install day, lines [product index, quantity, unit price]. */
export const SALES: { customer: string; day: number; lines: Line[] }[] = [
  { customer: '北京云启科技有限公司', day: -28, lines: [[0, 30, 69], [1, 10, 299], [2, 5, 1399]] },
  { customer: '杭州禾丰连锁超市', day: -22, lines: [[5, 12, 159], [6, 20, 89]] },
  { customer: '上海恒信精密制造有限公司', day: -18, lines: [[3, 15, 199], [7, 8, 249]] },
  { customer: '成都启明教育科技有限公司', day: -12, lines: [[4, 10, 429], [0, 25, 69]] },
  { customer: '广州美佳日化有限公司', day: -7, lines: [[2, 6, 1399], [1, 12, 299], [6, 15, 89]] },
  { customer: '武汉康宁医疗器械有限公司', day: -3, lines: [[7, 10, 249], [3, 10, 199]] },
];

/** What each product should hold after the samples: purchased − sold. */
export function expectedStock(purchases = PURCHASES, sales = SALES): { inQty: number[]; outQty: number[] } {
  const inQty = PRODUCTS.map(() => 0);
  const outQty = PRODUCTS.map(() => 0);
  for (const p of purchases) for (const [i, qty] of p.lines) inQty[i]! += qty;
  for (const s of sales) for (const [i, qty] of s.lines) outQty[i]! += qty;
  return { inQty, outQty };
}

/** An order form: a party, a date, lines of product × quantity × price, the total. */
function orderControls(product: string, party: [string, string]) {
  return [
    c.text(party[0], party[1], { required: true }),
    c.date('OrderDate', '单据日期', { defaultValue: 'now' }),
    c.grid('Lines', '明细', [
      c.link('Product', '商品', product, { required: true }),
      c.number('Qty', '数量', { required: true }),
      c.money('Price', '单价'),
      c.formula('Amount', '金额', '{Lines.Qty}*{Lines.Price}', { decimalPlaces: 2 }),
    ]),
    c.rollup('Total', '合计金额', { rollupType: 'sum', sourceCode: 'Lines', sourceField: 'Amount', decimalPlaces: 2 }),
    c.area('Remark', '备注'),
  ];
}

/** The rules that turn an order's lines into stock moves, and take them away again when the order goes. */
function moveRules(move: string, kind: '采购入库' | '销售出库') {
  const [qty, order] = kind === '采购入库' ? ['InQty', 'PurchaseOrder'] : ['OutQty', 'SalesOrder'];
  return [
    {
      id: 'moves', name: `${kind}生成库存流水`, on: 'effective' as const, action: 'insert' as const, targetSchemaCode: move, forEachRow: 'Lines',
      mappings: [
        { field: 'Product', value: { type: 'field' as const, code: 'Lines.Product' } },
        { field: qty, value: { type: 'field' as const, code: 'Lines.Qty' } },
        { field: 'Kind', value: { type: 'constant' as const, value: kind } },
        { field: 'MoveDate', value: { type: 'field' as const, code: 'OrderDate' } },
        { field: order, value: { type: 'field' as const, code: 'ObjectId' } },
      ],
    },
    { id: 'undo', name: `删除${kind}的库存流水`, on: 'void' as const, action: 'delete' as const, targetSchemaCode: move, conditions: [{ field: order, value: { type: 'field' as const, code: 'ObjectId' } }] },
  ];
}

export const buildInventory: TemplateBuilder = async (ctx) => {
  const appCode = await newApp(ctx, { name: '进销存', icon: 'shop', iconColor: '#52c41a', summary: '商品、采购入库与销售出库，库存按出入库流水自动汇总' });
  const product = await newForm(ctx, appCode, '商品');
  const move = await newForm(ctx, appCode, '库存流水');
  const purchase = await newForm(ctx, appCode, '采购入库单');
  const sale = await newForm(ctx, appCode, '销售出库单');
  const productControls = [
    c.text('ProductCode', '商品编码', { required: true, noRepeat: true }),
    c.text('ProductName', '商品名称', { required: true }),
    c.choice('Category', '商品分类', ['电脑配件', '显示设备', '音频设备', '办公配件']),
    c.choice('Unit', '单位', ['个', '台', '副', '套', '箱']),
    c.money('CostPrice', '采购价'),
    c.money('SalePrice', '销售价'),
    c.number('SafetyStock', '安全库存'),
  ];
  await designForm(ctx, product, { name: '商品', nameSchema: '{ProductName}', controls: productControls });
  await designForm(ctx, move, {
    name: '库存流水',
    controls: [
      c.link('Product', '商品', product, { required: true }),
      c.choice('Kind', '类型', ['采购入库', '销售出库', '盘点调整']),
      c.number('InQty', '入库数量'),
      c.number('OutQty', '出库数量'),
      c.date('MoveDate', '日期'),
      c.link('PurchaseOrder', '采购入库单', purchase),
      c.link('SalesOrder', '销售出库单', sale),
    ],
  });
  await designForm(ctx, product, {
    name: '商品',
    nameSchema: '{ProductName}',
    controls: [
      ...productControls,
      c.rollup('InQty', '累计入库', { rollupType: 'sum', sourceSchemaCode: move, sourceCode: 'Product', sourceField: 'InQty', decimalPlaces: 0 }),
      c.rollup('OutQty', '累计出库', { rollupType: 'sum', sourceSchemaCode: move, sourceCode: 'Product', sourceField: 'OutQty', decimalPlaces: 0 }),
      c.formula('Stock', '当前库存', '{InQty}-{OutQty}', { decimalPlaces: 0 }),
    ],
  });
  await designForm(ctx, purchase, { name: '采购入库单', controls: orderControls(product, ['Supplier', '供应商']), rules: moveRules(move, '采购入库') });
  await designForm(ctx, sale, { name: '销售出库单', controls: orderControls(product, ['Customer', '客户']), rules: moveRules(move, '销售出库') });
  await designViews(ctx, product, [
    { title: '库存清单', columns: ['ProductCode', 'ProductName', 'Category', 'Unit', 'InQty', 'OutQty', 'Stock', 'SafetyStock'].map((field) => ({ field })), sort: [{ field: 'ProductCode', direction: 'asc' }] },
  ]);
  const money = { decimals: 2, thousands: true, percent: false, unit: '元' };
  const board = await newBoard(ctx, appCode, '进销存看板', [
    { type: 'number', title: '销售总额', source: { schemaCode: sale }, dimensions: [], measures: [{ aggregate: 'sum', field: 'Total', format: money }] },
    { type: 'number', title: '采购总额', source: { schemaCode: purchase }, dimensions: [], measures: [{ aggregate: 'sum', field: 'Total', format: money }] },
    { type: 'bar', title: '当前库存（按商品）', source: { schemaCode: product }, dimensions: [{ field: 'ProductName' }], measures: [{ aggregate: 'sum', field: 'Stock' }], wide: true },
    { type: 'line', title: '销售额（按月份）', source: { schemaCode: sale }, dimensions: [{ field: 'OrderDate', dateGroup: 'month' }], measures: [{ aggregate: 'sum', field: 'Total', format: money }], wide: true },
  ]);
  const ids: string[] = [];
  for (const [code, name, category, unit, cost, price, safety] of PRODUCTS) {
    ids.push(await submitRecord(ctx, product, { ProductCode: code, ProductName: name, Category: category, Unit: unit, CostPrice: cost, SalePrice: price, SafetyStock: safety }));
  }
  const lines = (list: Line[]) => ({ Lines: list.map(([i, qty, price]) => ({ Product: ids[i], Qty: qty, Price: price })) });
  for (const p of PURCHASES) await submitRecord(ctx, purchase, { Supplier: p.supplier, OrderDate: dayOf(ctx, p.day) }, lines(p.lines));
  for (const s of SALES) await submitRecord(ctx, sale, { Customer: s.customer, OrderDate: dayOf(ctx, s.day) }, lines(s.lines));
  return { appCode, forms: { product, move, purchase, sale }, boards: { stock: board } };
};
