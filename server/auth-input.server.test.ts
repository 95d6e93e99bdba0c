import { describe, expect, it } from 'vitest';
import { NAME_MAX_LENGTH } from '~/features/users/users.schema';
import { checkAuthInput, fitUserToLimits } from './auth-input.server';

describe('better-auth input', () => {
  it('refuses what the forms refuse, on the two doors it guards only', () => {
    expect(() => checkAuthInput('/sign-up/email', { email: 'a@example.com', name: 'n'.repeat(NAME_MAX_LENGTH + 1), password: 'x' })).toThrow(`Name must be at most ${NAME_MAX_LENGTH} characters`);
    expect(() => checkAuthInput('/update-user', { image: 'javascript:alert(1)' })).toThrow('Photo must be an image URL');
    expect(() => checkAuthInput('/update-user', { image: null, name: 'Fine' })).not.toThrow();
    expect(() => checkAuthInput('/sign-up/email', { email: 'a@example.com', name: 'Fine', image: '/uploads/a-1600.webp' })).not.toThrow();
    expect(() => checkAuthInput('/sign-in/email', { name: 'n'.repeat(500) })).not.toThrow();
  });

  it("fits a provider's profile to the limits instead of failing the sign-in", () => {
    expect(fitUserToLimits({ name: ` ${'n'.repeat(150)} `, image: 'data:image/png;base64,AAAA' })).toEqual({ data: { name: 'n'.repeat(NAME_MAX_LENGTH), image: null } });
    expect(fitUserToLimits({ name: 'Ada', image: 'https://lh3.googleusercontent.com/a/photo' })).toEqual({ data: {} });
    expect(fitUserToLimits({})).toEqual({ data: {} });
  });
});
