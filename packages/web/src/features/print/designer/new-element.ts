import { newPrintElement, type PrintElement, type PrintElementType, type PrintFieldChoice } from '@tritium/shared/print/index';

// A new element as the designer drops it: its size and first settings are its kind's entry in the print element
// registry (packages/shared/src/print/elements.ts); here only a fresh id.

export type Fields = PrintFieldChoice[];

let counter = 0;
const newIdOf = (type: string, taken: readonly PrintElement[]) => {
  let id: string;
  do id = `${type}${++counter}`;
  while (taken.some((e) => e.id === id));
  return id;
};

export function newElement(type: PrintElementType, at: { x: number; y: number }, fields: Fields, taken: readonly PrintElement[], text: string): PrintElement {
  return newPrintElement(type, newIdOf(type, taken), at, fields, text);
}
