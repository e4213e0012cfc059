import { describe, expect, it } from 'vitest';
import { MAX_PASSWORD, MIN_PASSWORD } from '../../src/domain/account-rules.js';
import { addPerson, resetPerson, setOperator } from '../../src/operator/people.js';
import { T0 } from '../store/contract/fixtures.js';
import { operatorStore, refusal } from './store.js';

const PUBLIC_URL = 'https://s.example';

describe('operator: people', () => {
  const db = operatorStore();

  it('adds a person without a password with a set-password link, and none with one', async () => {
    const added = await addPerson(db.store, { email: ' Cy@Example.com ', agreedTerms: false }, PUBLIC_URL, T0);
    expect(added).toMatchObject({ email: 'cy@example.com', agreedTermsAt: null, setPasswordUrl: expect.stringMatching(`^${PUBLIC_URL}/`) });
    const withPassword = await addPerson(db.store, { email: 'dee@example.com', password: 'a good password', agreedTerms: true }, PUBLIC_URL, T0);
    expect(withPassword).not.toHaveProperty('setPasswordUrl');
  });

  it('refuses a malformed email, a password out of bounds (never quoting it) and a taken email', async () => {
    expect(await refusal(addPerson(db.store, { email: 'not-an-email', agreedTerms: true }, PUBLIC_URL, T0))).toEqual({
      status: 400,
      code: 'bad_request',
      message: 'not an email address: "not-an-email"',
      field: 'email',
    });
    const short = await refusal(addPerson(db.store, { email: 'cy@example.com', password: 'short', agreedTerms: true }, PUBLIC_URL, T0));
    expect(short).toEqual({ status: 400, code: 'bad_request', message: `--password must be ${MIN_PASSWORD} to ${MAX_PASSWORD} characters`, field: 'password' });
    await db.person({ email: 'ann@example.com' });
    expect(await refusal(addPerson(db.store, { email: 'ANN@example.com', agreedTerms: true }, PUBLIC_URL, T0))).toEqual({
      status: 409,
      code: 'conflict',
      message: 'a person with the email ann@example.com already exists',
      field: 'email',
    });
  });

  it('refuses to reset or promote an email that names no person (404)', async () => {
    const unknown = { status: 404, code: 'not_found', message: 'no person has the email nobody@example.com', field: 'email' };
    expect(await refusal(resetPerson(db.store, 'Nobody@example.com', PUBLIC_URL, T0))).toEqual(unknown);
    expect(await refusal(setOperator(db.store, 'nobody@example.com', true))).toEqual(unknown);
  });

  it('makes a person an operator once: the second time changes nothing', async () => {
    await db.person({ email: 'ann@example.com' });
    expect(await setOperator(db.store, 'ann@example.com', true)).toMatchObject({ operator: true, changed: true });
    expect(await setOperator(db.store, 'ann@example.com', true)).toMatchObject({ operator: true, changed: false });
    expect(await setOperator(db.store, 'ann@example.com', false)).toMatchObject({ operator: false, changed: true });
  });
});
