import type { ApiError } from '../errors.js';
import type { FieldErrors } from '../views/forms.js';

/**
 * A link form's faults beside their fields: the tool's refusal first (it is what the API answers), then the first
 * fault the tool's checks found (faultsOf) of each other field. A fault that names no field is the refusal's alone.
 */
export function faultsBesideFields(refusal: ApiError, faults: readonly ApiError[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const fault of [refusal, ...faults]) {
    if (fault.field !== null && errors[fault.field] === undefined) errors[fault.field] = fault.detail;
  }
  return errors;
}

/** The team field's message: a value that is no team id was not picked from the page's list, so say what to do. */
export function teamFault(refusal: ApiError): string {
  return refusal.code === 'bad_request' ? 'Choose one of your teams.' : refusal.detail;
}
