import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AuthType, AuthUsage, supportsUsage } from '../connectors/auth-types.ts';
import { ValidationError } from '../errors.ts';
import { type AuthState, deleteAuth, setAuth } from './auth-state.ts';

describe('setAuth and deleteAuth', () => {
  it('start from no authorization', () => {
    const empty: AuthState = {};
    expect(empty.browser).toBeUndefined();
    expect(empty.server).toBeUndefined();
  });

  it('set one usage without touching the other', () => {
    const state = setAuth({}, { usage: 'browser', type: 'staticKey' });
    expect(state).toEqual({ browser: { type: 'staticKey', revision: 1 } });
  });

  it('setting again replaces the type and bumps the revision', () => {
    let state = setAuth({}, { usage: 'server', type: 'staticKey' });
    state = setAuth(state, { usage: 'server', type: 'oAuth2ClientCredentials' });
    expect(state).toEqual({ server: { type: 'oAuth2ClientCredentials', revision: 2 } });
    state = setAuth(state, { usage: 'server', type: 'oAuth2ClientCredentials' });
    expect(state.server?.revision).toBe(3);
  });

  it('do not modify the state they are given', () => {
    const before = setAuth({}, { usage: 'browser', type: 'staticKey' });
    setAuth(before, { usage: 'browser', type: 'oAuth2JwtBearer' });
    deleteAuth(before, 'browser');
    expect(before).toEqual({ browser: { type: 'staticKey', revision: 1 } });
  });

  it('delete removes the usage and is idempotent', () => {
    const state = setAuth(setAuth({}, { usage: 'browser', type: 'staticKey' }), {
      usage: 'server',
      type: 'staticKey',
    });
    expect(deleteAuth(state, 'browser')).toEqual({ server: { type: 'staticKey', revision: 1 } });
    expect(deleteAuth(deleteAuth(state, 'browser'), 'browser')).toEqual({
      server: { type: 'staticKey', revision: 1 },
    });
    expect(deleteAuth({}, 'server')).toEqual({});
  });

  it('refuse authorization code for server usage', () => {
    expect(() => setAuth({}, { usage: 'server', type: 'oAuth2AuthorizationCode' })).toThrow(ValidationError);
  });

  it('refuse a type missing from supportedAuth when it is given', () => {
    expect(() =>
      setAuth({}, { usage: 'browser', type: 'oAuth2JwtBearer', supportedAuth: ['staticKey'] }),
    ).toThrow(ValidationError);
    expect(setAuth({}, { usage: 'browser', type: 'staticKey', supportedAuth: ['staticKey'] })).toEqual({
      browser: { type: 'staticKey', revision: 1 },
    });
  });

  it('after any sequence each usage holds at most the last type set since its last deletion', () => {
    const operation = fc.oneof(
      fc.record({
        op: fc.constant('set' as const),
        usage: fc.constantFrom(...AuthUsage.options),
        type: fc.constantFrom(...AuthType.options),
      }),
      fc.record({ op: fc.constant('delete' as const), usage: fc.constantFrom(...AuthUsage.options) }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 40 }), (operations) => {
        let state: AuthState = {};
        const expected: Partial<Record<AuthUsage, { type: AuthType; sets: number }>> = {};
        for (const operation of operations) {
          if (operation.op === 'delete') {
            state = deleteAuth(state, operation.usage);
            delete expected[operation.usage];
          } else if (supportsUsage(operation.type, operation.usage)) {
            state = setAuth(state, operation);
            const sets = (expected[operation.usage]?.sets ?? 0) + 1;
            expected[operation.usage] = { type: operation.type, sets };
          } else {
            const before = state;
            expect(() => setAuth(state, operation)).toThrow(ValidationError);
            expect(state).toBe(before);
          }
        }
        expect(Object.keys(state).every((usage) => AuthUsage.options.includes(usage as AuthUsage))).toBe(
          true,
        );
        for (const usage of AuthUsage.options) {
          const want = expected[usage];
          expect(state[usage]).toEqual(want ? { type: want.type, revision: want.sets } : undefined);
        }
      }),
    );
  });
});
