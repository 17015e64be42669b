// Standard Schema helpers of the package layer: `completable`, a schema's JSON Schema, the
// SDK's raw-shape form, and the message of a failed validation.

export const COMPLETE = Symbol.for('mcp-context.complete')

/**
 * Marks a prompt argument's schema as completable (the official SDK's `completable`):
 * `complete(value, { arguments })` returns the candidate values.
 */
export function completable(schema, complete) {
  Object.defineProperty(schema, COMPLETE, { value: complete, enumerable: false })
  return schema
}

/** Standard Schema: the JSON Schema of the input (`~standard.jsonSchema`), or null. */
export function jsonSchemaOf(schema) {
  const std = schema?.['~standard']
  try {
    return std?.jsonSchema?.input?.({ target: 'draft-2020-12' }) ?? null
  } catch {
    return null
  }
}

/** Wraps a zod raw shape (`{ a: z.string() }`, the SDK's deprecated form) as one schema. */
export function asSchema(schema) {
  if (!schema || schema['~standard']) return schema
  const entries = Object.entries(schema)
  if (!entries.every(([, s]) => s?.['~standard'])) throw new TypeError('argsSchema must be a Standard Schema')
  return {
    '~standard': {
      version: 1, vendor: 'mcp-context',
      async validate(value) {
        const out = {}
        const issues = []
        for (const [k, s] of entries) {
          const r = await s['~standard'].validate(value?.[k])
          if (r.issues) issues.push(...r.issues.map((i) => ({ ...i, path: [k, ...(i.path ?? [])] })))
          else if (r.value !== undefined) out[k] = r.value
        }
        return issues.length ? { issues } : { value: out }
      },
      jsonSchema: {
        input: (o) => {
          const properties = {}
          const required = []
          for (const [k, s] of entries) {
            const j = jsonSchemaOf(s) ?? {}
            properties[k] = j
            if (!s.safeParse?.(undefined)?.success) required.push(k)
          }
          return { type: 'object', properties, required }
        },
      },
    },
  }
}

export function issueMessage(issues) {
  const i = issues[0]
  const at = i?.path?.length ? `${i.path.map((p) => (typeof p === 'object' ? p.key : p)).join('.')}: ` : ''
  return `Invalid arguments: ${at}${i?.message ?? 'invalid'}`
}
