import { describe, expect, it } from 'vitest';
import {
  gmsField,
  isBlank,
  isValidEmail,
  parseJsonObject,
  readLogInForm,
  readResetForm,
  readSignUpForm,
} from './login-forms.js';

const failure = (message: string) => ({ ok: false, message });

describe('parseJsonObject', () => {
  it('accepts only a JSON object', () => {
    expect(parseJsonObject('{"a":1}')).toEqual({ a: 1 });
    for (const text of ['', '  ', '{', '[]', '"x"', 'null', '3', undefined, 42]) {
      expect(parseJsonObject(text)).toBeUndefined();
    }
  });
});

describe('gmsField', () => {
  it('reads text as the GMS controllers do', () => {
    const body = { s: 'x', n: 3, b: false, z: null, o: {}, a: [] };
    expect(gmsField(body, 's')).toBe('x');
    expect(gmsField(body, 'n')).toBe('3');
    expect(gmsField(body, 'b')).toBe('false');
    for (const name of ['z', 'o', 'a', 'missing']) expect(gmsField(body, name)).toBeUndefined();
  });
});

describe('isBlank', () => {
  it('is true for absent, empty and whitespace', () => {
    expect(isBlank(undefined)).toBe(true);
    expect(isBlank('')).toBe(true);
    expect(isBlank(' \t')).toBe(true);
    expect(isBlank(' a ')).toBe(false);
  });
});

describe('readLogInForm', () => {
  it('needs a user name', () => {
    expect(readLogInForm({})).toEqual(failure('User name must not be empty.'));
    expect(readLogInForm({ username: '  ', password: 'p' })).toEqual(failure('User name must not be empty.'));
    expect(readLogInForm({ username: 7, password: 'p' })).toEqual(failure('User name must not be empty.'));
  });

  it('takes a missing password as empty (it then does not match)', () => {
    expect(readLogInForm({ username: 'jane' })).toEqual({
      ok: true,
      value: { username: 'jane', password: '' },
    });
  });
});

describe('readSignUpForm', () => {
  const valid = {
    fullName: 'Jane Doe',
    email: ' jane@example.com ',
    password: 'secret',
    inviteToken: 'abc',
    title: 'Engineer',
  };

  it('returns the form with the email trimmed', () => {
    const result = readSignUpForm({ ...valid, email: 'jane@example.com' });
    expect(result).toEqual({ ok: true, value: { ...valid, email: 'jane@example.com' } });
  });

  it('leaves a blank title out', () => {
    const result = readSignUpForm({ ...valid, email: 'jane@example.com', title: ' ' });
    expect(result.ok && 'title' in result.value).toBe(false);
  });

  it('checks fields in the frontend order with its texts', () => {
    expect(readSignUpForm({})).toEqual(failure('Full name must not be empty.'));
    expect(readSignUpForm({ ...valid, fullName: '' })).toEqual(failure('Full name must not be empty.'));
    expect(readSignUpForm({ ...valid, email: '' })).toEqual(failure('Email must not be empty.'));
    expect(readSignUpForm({ ...valid, email: 'not-an-email' })).toEqual(failure('Email must not be empty.'));
    expect(readSignUpForm({ ...valid, email: 'jane@example.com', password: '' })).toEqual(
      failure('Password must not be empty.'),
    );
    expect(readSignUpForm({ ...valid, email: 'jane@example.com', inviteToken: ' ' })).toEqual(
      failure('Invite token must not be empty.'),
    );
  });
});

describe('isValidEmail', () => {
  it('follows the HTML5 address syntax', () => {
    for (const ok of ['a@b.co', 'first.last+tag@sub.example.org', 'user@localhost'])
      expect(isValidEmail(ok)).toBe(true);
    for (const bad of ['', 'a', 'a@', '@b.co', 'a b@c.d', 'a@-b.co', 'a@b..co', ' a@b.co']) {
      expect(isValidEmail(bad)).toBe(false);
    }
  });
});

describe('readResetForm', () => {
  it('checks email, password, reset token in order', () => {
    expect(readResetForm({})).toEqual(failure('Email must not be empty.'));
    expect(readResetForm({ email: 'a@b.co' })).toEqual(failure('Password must not be empty.'));
    expect(readResetForm({ email: 'a@b.co', password: 'p' })).toEqual(
      failure('Reset token must not be empty.'),
    );
    expect(readResetForm({ email: ' a@b.co ', password: 'p', resetToken: 't' })).toEqual({
      ok: true,
      value: { email: 'a@b.co', password: 'p', resetToken: 't' },
    });
  });
});
