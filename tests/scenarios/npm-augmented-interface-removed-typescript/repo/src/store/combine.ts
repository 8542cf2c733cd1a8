export function combineReducers<T extends Record<string, (s: any) => any>>(parts: T) {
  return (state: any) => Object.fromEntries(Object.entries(parts).map(([k, f]) => [k, f(state?.[k])])) as {
    [K in keyof T]: ReturnType<T[K]>;
  };
}
