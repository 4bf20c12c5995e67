// The bytes that rows add to an answer, counted in the query process while it gathers them, so that no
// answer is built over the maximum message size (three rows of 100 MB strings used to make a 286 MiB
// line, and the process tree held 2.8 GB on the way). The count is exact for the JSON of the rows and an
// upper bound for the text table (its padding), so a row that fits here fits in the message.

import { escapedBytes } from '../../jsonrpc/json-size.js';
import { clip } from './text-table.js';
import { type Cell, cellText } from './values.js';

/**
 * How the rows appear in the answer. 'table': read_query and the table resources, a text table (cells
 * clipped and padded) and the rows as objects. 'text-table': a table resource, the text table alone.
 * 'returning': write_query's RETURNING rows, as objects in structuredContent and as JSON inside the text.
 */
export type AnswerShape = 'table' | 'text-table' | 'returning';

/** Room for the JSON-RPC envelope and the answer's own words around the rows. */
const ENVELOPE = 4096;
/** The text table pads a cell to its column's width, which is at most the clip width (60), plus " | ". */
const CELL_PADDING = 63;

export class AnswerBudget {
  private left: number;
  private readonly keyBytes: number[][];

  constructor(
    private readonly shape: AnswerShape,
    keys: readonly string[],
    maxBytes: number,
  ) {
    this.keyBytes = keys.map((key) => [escapedBytes(key, 1), escapedBytes(key, 2)]);
    // The column names: in "columns", in the text table's header and its rule, or not at all.
    let header = 2;
    for (const key of keys) {
      header += escapedBytes(key, 1) + 3;
      if (shape !== 'returning') header += escapedBytes(clip(key), 1) + 2 * CELL_PADDING;
    }
    this.left = maxBytes - ENVELOPE - header;
  }

  /** Takes a row's bytes from the budget; false, and nothing taken, when the row does not fit. */
  take(cells: readonly Cell[]): boolean {
    let cost = this.shape === 'text-table' ? 0 : this.objectBytes(cells, 1) + 1;
    if (this.shape === 'returning') cost += this.objectBytes(cells, 2) + 1;
    else {
      // One line of the text table, and its line break ("\n" in JSON).
      cost += 2;
      for (const cell of cells) cost += escapedBytes(clip(cellText(cell)), 1) + CELL_PADDING;
    }
    if (cost > this.left) return false;
    this.left -= cost;
    return true;
  }

  /** The row as a JSON object (rowObjects), escaped `times` times: once in structuredContent, twice in text. */
  private objectBytes(cells: readonly Cell[], times: 1 | 2): number {
    const quote = times; // '"', or '\"' once more escaped
    let bytes = 2 + Math.max(0, this.keyBytes.length - 1);
    for (const [i, key] of this.keyBytes.entries()) {
      bytes += key[times - 1]! + 2 * quote + 1 + cellBytes(cells[i] ?? null, times);
    }
    return bytes;
  }
}

function cellBytes(cell: Cell, times: 1 | 2): number {
  if (cell === null) return 4;
  if (typeof cell === 'number') return JSON.stringify(cell).length;
  if (typeof cell === 'string') return 2 * times + escapedBytes(cell, times);
  // {"base64":"..."}: base64 needs no escaping.
  return 2 + 4 * times + 6 + 1 + cell.base64.length;
}
