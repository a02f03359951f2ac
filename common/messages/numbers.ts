/**
 * Numbers inside the messages, written as the spec writes them (5,000). Not `toLocaleString('en')`:
 * the messages are built when their module loads, on every tablet's cold start, and a first
 * `toLocaleString` call loads the browser's locale data, some 100 ms on a tablet before the first screen.
 */
export function thousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
