/**
 * A handle to something a `beforeAll` hook makes, for the hooks and tests that follow it: reading
 * it before the hook ran is a mistake, and says so.
 */
export function late<T extends object>(what: string) {
  let value: T | undefined;
  const handle = new Proxy({} as T, {
    get(_, key) {
      if (value === undefined) throw new Error(`${what} is made in beforeAll: use it inside a hook or a test`);
      const member = Reflect.get(value, key);
      return typeof member === 'function' ? member.bind(value) : member;
    },
    set(_, key, member) {
      if (value === undefined) throw new Error(`${what} is made in beforeAll: use it inside a hook or a test`);
      return Reflect.set(value, key, member);
    },
  });
  return {
    handle,
    set(v: T) {
      value = v;
    },
    get: () => value,
  };
}
