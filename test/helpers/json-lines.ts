/**
 * The complete lines of a JSON-lines file as read while another process may be appending to it: a
 * line is complete once its newline is written, so a last line without one (an append in progress) is
 * left for the next read rather than parsed half-written.
 */
export function completeJsonLines<T>(text: string): T[] {
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}
