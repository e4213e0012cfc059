/**
 * Named leases, so that work meant for one process at a time (the daily unsafe-site re-check) runs on one
 * process however many share the store. A lease is held until its time runs out; the holder renews it by
 * acquiring it again.
 */
export interface LeaseStore {
  /**
   * Takes the lease `name` for `holder` until `until`, or renews it: true when it was free, its time had run out
   * by `now`, or `holder` held it already; false (changing nothing) while another holder has it.
   */
  acquire(name: string, holder: string, until: Date, now: Date): Promise<boolean>;
}
