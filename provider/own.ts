/**
 * Lookups by own property: a key that comes from users or the wire (a flavor name, a volume type, a
 * settings key) never reaches Object.prototype (`constructor`, `toString`, `__proto__`).
 * @internal
 */

/** ownValue is `record[key]` when the record itself has `key`, else undefined. @internal */
export function ownValue<T>(
  record: Readonly<Record<string, T>> | undefined | null,
  key: string,
): T | undefined {
  return record !== undefined && record !== null && Object.hasOwn(record, key) ? record[key] : undefined;
}
