// A value made once per key and kept for the process's life (Intl formats, holiday calendars): making one is costly,
// and the keys are few (locales, time zones, markets, years). Pure: the map is the caller's.

/** `map`'s value for `key`, made by `make` and kept the first time it is asked for. */
export function cachedBy<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
