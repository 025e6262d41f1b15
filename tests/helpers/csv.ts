/** Reading CSV in tests, with a parser independent of the service's writer. */
import { parseString } from 'fast-csv';

/** The rows of a CSV text (header row included), each as its cells' text. */
export function parseCsv(text: string): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const out: string[][] = [];
    parseString(text)
      .on('data', (r: string[]) => out.push(r))
      .on('error', reject)
      .on('end', () => resolve(out));
  });
}
