/**
 * A token from a link's query as text. The router parses query values as JSON, so a value made only
 * of digits arrives as a number and is turned back into text (the server's tokens are 43 base64url
 * characters, so never that in practice). Missing or empty: absent.
 */
export function textParameter<K extends string>(search: Record<string, unknown>, name: K): Partial<Record<K, string>> {
  const value = search[name];
  if ((typeof value === 'string' && value !== '') || (typeof value === 'number' && Number.isFinite(value))) return { [name]: String(value) } as Partial<Record<K, string>>;
  return {};
}
