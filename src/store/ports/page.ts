/** A keyset page: at most `limit` rows after the row whose key is `after` (null: from the first). */
export interface Page<K> {
  limit: number;
  after: K | null;
}
