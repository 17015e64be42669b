// `UriTemplate` and `Router` of the WebAssembly engine (the same API as the napi addon's),
// over the buffers of `wasm/src/template.rs`: strings are written as UTF-8 into the object's
// input buffer in linear memory, the engine is called with a length, and the results are read
// back from its output (ASCII expansions without a decoder where `Buffer` exists) and from
// the records of a match, which give each value as a slice of the URI or of the decoded
// text. Every rule is the engine's: this file only moves bytes and builds result objects.
import * as glue from './pkg/mcp_context_wasm.js'
import { McpContextError } from './engine.mjs'

const UNDEFINED = 0xffffffff
const DECODED = 0x80000000
const EXPLODED = 0x80000000
const MAX_POSITIONAL = 32 // template.rs MAX_POSITIONAL
const FAILED = -2147483648 // template.rs FAILED: the error is `takeError()`
const EMPTY = Object.freeze({})
const encoder = new TextEncoder()
const decoder = new TextDecoder()
const NodeBuffer = typeof globalThis.Buffer?.prototype?.latin1Slice === 'function' ? globalThis.Buffer : null

// Views of linear memory, renewed when it grows (the old buffer is detached: length 0).
let memory = null
let u8 = new Uint8Array(0)
let u32 = new Uint32Array(0)
let bytes = null
function views() {
  if (u8.byteLength !== 0) return
  memory ??= glue.templateMemory()
  u8 = new Uint8Array(memory.buffer)
  u32 = new Uint32Array(memory.buffer)
  bytes = NodeBuffer && NodeBuffer.from(memory.buffer)
}
/** Writes `w` as a u32 at byte `p` of memory. */
function setWord(p, w) {
  if ((p & 3) === 0) {
    u32[p >>> 2] = w
  } else {
    u8[p] = w
    u8[p + 1] = w >>> 8
    u8[p + 2] = w >>> 16
    u8[p + 3] = w >>> 24
  }
}
let busy = false // an expansion is filling its buffer
const ascii = (at, len) => (bytes ? bytes.latin1Slice(at, at + len) : decoder.decode(u8.subarray(at, at + len)))
const utf8 = (at, len) => (bytes ? bytes.utf8Slice(at, at + len) : decoder.decode(u8.subarray(at, at + len)))

function rethrow(err) {
  if (typeof err !== 'string') throw err
  let e
  try { e = JSON.parse(err) } catch { throw new McpContextError(err, 'ERR_WASM') }
  throw new McpContextError(e.message, e.code)
}

/** The input buffer of `o` (`{ inner, addr, cap }`) with room for `size` bytes. */
function reserve(o, size) {
  views()
  if (size <= o.cap) return
  o.cap = Math.max(size, 2 * o.cap, 256)
  o.addr = o.inner.inputBuffer(o.cap)
  u8 = new Uint8Array(0)
  views()
}
/** Writes `s` as UTF-8 at byte `at` of `o`'s input; the number of bytes. */
function put(o, s, at) {
  const len = s.length
  reserve(o, at + 3 * len)
  const base = o.addr + at
  if (len <= 64) {
    for (let i = 0; i < len; i++) {
      const c = s.charCodeAt(i)
      if (c >= 0x80) return encoder.encodeInto(s, u8.subarray(base, o.addr + o.cap)).written
      u8[base + i] = c
    }
    return len
  }
  return encoder.encodeInto(s, u8.subarray(base, o.addr + o.cap)).written
}
function putUri(o, uri) {
  if (typeof uri !== 'string') throw new TypeError('the URI must be a string')
  return put(o, uri, 0)
}

const piece = (a, b, uri, d) => (a >= DECODED ? d.slice(a - DECODED, b) : uri.slice(a, b))
/** The variables object from the records at word `at` (template.rs `write_records`). */
function variables(names, at, uri, d) {
  const k = u32[at++]
  const o = {}
  for (let c = 0; c < k; c++) {
    const tag = u32[at++]
    const name = names[tag & ~EXPLODED]
    let v
    if (tag >= EXPLODED) {
      const count = u32[at++]
      v = new Array(count)
      for (let i = 0; i < count; i++, at += 2) v[i] = piece(u32[at], u32[at + 1], uri, d)
    } else {
      v = piece(u32[at], u32[at + 1], uri, d)
      at += 2
    }
    // An own key even for `__proto__` (a valid RFC 6570 name), as `JSON.parse` gives.
    if (name === '__proto__') Object.defineProperty(o, name, { value: v, writable: true, enumerable: true, configurable: true })
    else o[name] = v
  }
  return o
}

export class UriTemplate {
  constructor(source) {
    try { this.inner = new glue.WasmTemplate(source) } catch (err) { rethrow(err) }
    this.source = source
    this.variables = this.inner.variables
    this.addr = 0
    this.cap = 0
    // Bytes the template adds to an expansion, at most: each source unit pct-encoded as up
    // to 9 bytes, and `=` and separators.
    this.room = 9 * source.length + 4 * this.variables.length + 16
  }
  expand(vars = EMPTY) {
    if (vars === null) vars = EMPTY
    const names = this.variables
    const n = names.length
    // A getter that expands while this call fills its buffer takes the JSON path.
    if (typeof vars !== 'object' || n > MAX_POSITIONAL || busy) return this.json(vars)
    let at = 4 * n
    busy = true
    try {
      reserve(this, at + 64)
      for (let i = 0; i < n; i++) {
        // Read, then written: `put` renews the views if a getter grew the memory.
        let v = vars[names[i]]
        let w = UNDEFINED
        if (typeof v === 'string') w = put(this, v, at)
        else if (typeof v === 'number' || typeof v === 'bigint') w = put(this, (v = String(v)), at)
        else if (v !== undefined && v !== null) { at = -1; break } // lists, objects, type errors
        if (w !== UNDEFINED) at += w
        setWord(this.addr + 4 * i, w)
      }
    } finally {
      busy = false
    }
    if (at < 0) return this.json(vars)
    // Room for the expansion after the values: each value byte becomes at most 3, and
    // everything else comes from the template (`room`); the engine checks anyway.
    reserve(this, at + 3 * (at - 4 * n) + this.room)
    const len = this.inner.expandInput(n, at)
    if (len >= 0) {
      views()
      return ascii(this.addr + at, len)
    }
    if (len === FAILED) rethrow(this.inner.takeError())
    // The input grew for the expansion (or it is not ASCII): its address again.
    this.addr = this.inner.inputBuffer(0)
    this.cap = Math.max(this.cap, at - len - 1)
    views()
    return utf8(this.addr + at, -len - 1)
  }
  /** Lists, objects and other values: JSON text through the engine's `expandJson`. */
  json(vars) {
    try { return this.inner.expandJson(JSON.stringify(vars)) } catch (err) { return rethrow(err) }
  }
  match(uri) {
    const len = putUri(this, uri)
    const n = this.inner.matchInput(len)
    if (n < 0) return n === FAILED ? rethrow(this.inner.takeError()) : null
    views()
    const d = n === 0 ? '' : utf8(this.inner.outputAddress(), n)
    return variables(this.variables, this.inner.recordsAddress() >>> 2, uri, d)
  }
  toString() { return this.source }
  toJSON() { return this.source }
}

export class Router {
  constructor() {
    this.inner = new glue.WasmRouter()
    this.templates = []
    this.names = []
    this.addr = 0
    this.cap = 0
  }
  insert(template) {
    let id
    try { id = this.inner.insert(template) } catch (err) { rethrow(err) }
    this.templates[id] = template
    return id
  }
  get length() { return this.templates.length }
  route(uri) {
    const len = putUri(this, uri)
    const n = this.inner.routeInput(len)
    if (n < 0) return n === FAILED ? rethrow(this.inner.takeError()) : null
    views()
    const d = n === 0 ? '' : utf8(this.inner.outputAddress(), n)
    let at = this.inner.recordsAddress() >>> 2
    const id = u32[at++]
    let names = this.names[id]
    if (names === undefined) names = this.names[id] = this.inner.routeNames(id)
    return { id, template: this.templates[id], variables: variables(names, at, uri, d) }
  }
}
