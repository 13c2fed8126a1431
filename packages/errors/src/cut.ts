/** How much of a caller's text an error message repeats: enough to recognise it, never a whole body. */
export const CUT_CHARS = 120;

/**
 * `text` as an error message may quote it: whole when short, else its start, an ellipsis and how
 * long it was. A 900 KB query once came back whole in its own error, and series keys and names
 * of any length did too (issue 37): every message that quotes a caller's text goes through here.
 */
export function cut(text: string, max = CUT_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length} characters)`;
}
