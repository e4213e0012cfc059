/** A wait as a person reads it on a page: whole minutes, rounded up (`1 minute`, `12 minutes`). */
export function minutesToWait(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
