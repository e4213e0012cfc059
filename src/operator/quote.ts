/** A value as a refusal names it, quoted, so a stray space or an empty string shows. */
export function quote(value: string): string {
  return JSON.stringify(value);
}
