// The official RFC 6570 suite (uritemplate-test) driven through the Node binding: positive
// cases expand exactly (or to one of the listed alternatives); negative cases throw
// TemplateError when parsed or expanded. JSON numbers are passed as JS numbers, which the
// binding converts with String().
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'

import { TemplateError, UriTemplate } from '../index.js'

const dir = new URL('../../tests/vectors/rfc6570/', import.meta.url)
const files = [
  'spec-examples.json',
  'spec-examples-by-section.json',
  'extended-tests.json',
  'negative-tests.json',
]

function* cases(file) {
  const doc = JSON.parse(readFileSync(new URL(file, dir), 'utf8'))
  for (const [group, body] of Object.entries(doc)) {
    for (const [i, [template, expected]] of body.testcases.entries()) {
      yield { name: `${group}#${i} ${template}`, vars: body.variables, template, expected }
    }
  }
}

for (const file of files) {
  describe(file, () => {
    for (const { name, vars, template, expected } of cases(file)) {
      it(name, () => {
        if (expected === false) {
          assert.throws(() => new UriTemplate(template).expand(vars), TemplateError)
          return
        }
        const got = new UriTemplate(template).expand(vars)
        const alternatives = Array.isArray(expected) ? expected : [expected]
        assert.ok(alternatives.includes(got), `${got} not in ${JSON.stringify(alternatives)}`)
      })
    }
  })
}

it('the suite is whole (270 cases, 64 spec examples)', () => {
  const counts = files.map((f) => [...cases(f)].length)
  assert.equal(counts[0], 64)
  assert.equal(counts.reduce((a, b) => a + b), 270)
})
