// The exported `UriTemplate` and `Router`: the native classes (template.rs, router.rs) with
// `expand`, `match` and `route` taking the fast path of fast.rs, where numbers and one shared
// Buffer cross instead of JS objects (a napi-rs method call costs more than the work). Every
// rule stays in the core: this file only moves strings into the buffer, and builds the
// result objects from the offsets the core wrote. Anything the fast path does not take
// (lists, objects, wrong types, templates with more than 64 variables) goes to the native
// method, which converts and throws as documented in index.d.ts.
//
// Evaluated once per environment by fast.rs (as an expression: nothing leaks into the global
// scope); the factory receives the fast closures and the native classes.
((natives, NativeUriTemplate, NativeRouter) => {
  'use strict'
  const MAX_POSITIONAL = 32 // fast.rs MAX_POSITIONAL
  const HEADER = 8 // fast.rs HEADER: handle and count, two u32s
  const UNDEFINED = 0xffffffff
  const DECODED = 0x80000000
  const EXPLODED = 0x80000000
  const call = Function.prototype.call
  const templateHandle = call.bind(NativeUriTemplate.prototype.__handle)
  const routerHandle = call.bind(NativeRouter.prototype.__handle)
  delete NativeUriTemplate.prototype.__handle
  delete NativeRouter.prototype.__handle
  const EMPTY = Object.freeze({})
  let busy = false // an expansion is writing the buffer

  // The shared buffer: its own ArrayBuffer (offset 0, so `words` is aligned).
  let buf = Buffer.allocUnsafeSlow(1 << 16)
  let words = new Uint32Array(buf.buffer, 0, buf.length >>> 2)
  let arrayBuffer = buf.buffer // what `expand` takes
  function reserve(size) {
    if (size <= buf.length) return
    let n = buf.length
    while (n < size) n *= 2
    const next = Buffer.allocUnsafeSlow(n)
    buf.copy(next)
    buf = next
    words = new Uint32Array(buf.buffer, 0, n >>> 2)
    arrayBuffer = buf.buffer
  }
  /** Writes `s` as UTF-8 at byte `at`; the number of bytes. */
  function put(s, at) {
    const len = s.length
    if (at + len * 3 > buf.length) reserve(at + len * 3)
    if (len <= 64) {
      for (let i = 0; i < len; i++) {
        const c = s.charCodeAt(i)
        if (c >= 0x80) return buf.write(s, at)
        buf[at + i] = c
      }
      return len
    }
    return buf.write(s, at)
  }
  /** Writes the header and `uri` with room for the records after it; the records' word. */
  function putUri(h, uri) {
    reserve(HEADER + 27 * uri.length + 640)
    const len = put(uri, HEADER)
    words[0] = h
    words[1] = len
    return (HEADER + len + 3) >>> 2
  }
  const piece = (a, b, uri, d) => (a >= DECODED ? d.slice(a - DECODED, b) : uri.slice(a, b))
  /** The variables object from the records at word `at` (fast.rs `write_records`). */
  function variables(names, at, uri, d) {
    const k = words[at++]
    const o = {}
    for (let c = 0; c < k; c++) {
      const tag = words[at++]
      const name = names[tag & ~EXPLODED]
      let v
      if (tag >= EXPLODED) {
        const count = words[at++]
        v = new Array(count)
        for (let i = 0; i < count; i++, at += 2) v[i] = piece(words[at], words[at + 1], uri, d)
      } else {
        v = piece(words[at], words[at + 1], uri, d)
        at += 2
      }
      // An own key even for `__proto__` (a valid RFC 6570 name), as `JSON.parse` gives.
      if (name === '__proto__') Object.defineProperty(o, name, { value: v, writable: true, enumerable: true, configurable: true })
      else o[name] = v
    }
    return o
  }

  class UriTemplate extends NativeUriTemplate {
    #h
    #names
    #positional
    constructor(source) {
      super(source)
      this.#h = templateHandle(this)
      this.#names = super.variables
      this.#positional = this.#names.length <= MAX_POSITIONAL
    }
    expand(vars) {
      if (vars === undefined || vars === null) vars = EMPTY
      else if (typeof vars !== 'object' || Array.isArray(vars) || !this.#positional) return super.expand(vars)
      // A getter may call back in while the buffer is half written: such calls take the
      // native methods.
      if (busy) return super.expand(vars)
      busy = true
      try {
        const names = this.#names
        const n = names.length
        // No `reserve` for the lengths: n <= MAX_POSITIONAL words fit the smallest buffer.
        let at = HEADER + 4 * n
        for (let i = 0; i < n; i++) {
          let v = vars[names[i]]
          if (typeof v !== 'string') {
            if (v === undefined || v === null) {
              words[2 + i] = UNDEFINED
              continue
            }
            if (typeof v !== 'number' && typeof v !== 'bigint') return super.expand(vars) // lists, objects, type errors
            v = String(v)
          }
          const w = put(v, at)
          words[2 + i] = w
          at += w
        }
        words[0] = this.#h
        words[1] = n
        return natives.expand(arrayBuffer)
      } finally {
        busy = false
      }
    }
    match(uri) {
      if (typeof uri !== 'string' || busy) return super.match(uri)
      const at = putUri(this.#h, uri)
      const d = natives.match(buf)
      return words[at] === UNDEFINED ? null : variables(this.#names, at, uri, d)
    }
  }

  class Router extends NativeRouter {
    #h
    #templates = []
    #names = []
    constructor() {
      super()
      this.#h = routerHandle(this)
    }
    insert(template) {
      const id = super.insert(template)
      this.#templates[id] = template
      return id
    }
    route(uri) {
      if (typeof uri !== 'string' || busy) return super.route(uri)
      let at = putUri(this.#h, uri)
      const d = natives.route(buf)
      const id = words[at++]
      if (id === UNDEFINED) return null
      const template = this.#templates[id]
      if (template === undefined) return super.route(uri)
      let names = this.#names[id]
      if (names === undefined) names = this.#names[id] = natives.routeNames(this.#h, id)
      return { id, template, variables: variables(names, at, uri, d) }
    }
  }
  return { UriTemplate, Router }
})
