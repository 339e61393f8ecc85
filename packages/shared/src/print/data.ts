// What a print template is filled with (issue 24; docs/decisions/0050): records assembled by the server under the
// viewer's rights — texts ready to print, hidden fields absent — so that the browser's Print mode and the PDF jobs
// render the same thing with the same renderer.

/** One entry of a record's approval trace, with the hand signature when one was given (an image URL or data URL). */
export interface PrintTraceEntry {
  activity: string;
  user: string;
  action: string;
  opinion: string;
  time: string;
  signature: string | null;
}

export interface PrintGridData {
  rows: Record<string, string>[];
}

/** One record to print. */
export interface PrintDocument {
  objectId: string;
  /** Texts by field code: the main table's fields and the system fields (Name, SeqNo, CreatedBy, CreatedTime, …). */
  values: Record<string, string>;
  /** Sub-table rows by sub-table code, each row's texts by column code. */
  grids: Record<string, PrintGridData>;
  /** What each QR code and barcode carries, by element id (field text, the record's link or a formula's result). */
  codes: Record<string, string>;
  /** Images of image fields (hand signatures) by field code: a URL the renderer can load, or a data URL. */
  images: Record<string, string>;
  trace: PrintTraceEntry[];
}

/** The form's words the template prints beside values: field names by code, sub-table columns by `Grid.Column`. */
export interface PrintSheet {
  title: string;
  labels: Record<string, string>;
  /** Sub-table columns in the form's order, by sub-table code (a grid without chosen columns prints these). */
  gridColumns: Record<string, string[]>;
  documents: PrintDocument[];
}
