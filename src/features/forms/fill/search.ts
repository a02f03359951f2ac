/**
 * Ids in an address's search (client ids; `?room=12`, an integer id, from older links). A number stays a number:
 * the router writes the validated search back into the address, and a numeric text would be written
 * JSON-quoted (`room=%2212%22`).
 */
export function idParameter<K extends string>(search: Record<string, unknown>, name: K): Partial<Record<K, string | number>> {
  const value = search[name];
  if (typeof value === 'number' && Number.isFinite(value)) return { [name]: value } as Partial<Record<K, string | number>>;
  if (typeof value === 'string' && value.trim() !== '') return { [name]: value.trim() } as Partial<Record<K, string | number>>;
  return {};
}
