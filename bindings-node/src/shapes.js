// The objects of a request's round trip (a `readResource` event, a transmit), built by
// object literals: one call from the addon instead of one `napi_set_named_property` per key
// (most of a read's time). Evaluated once per environment by shapes.rs (as an expression);
// the same keys, order and values as the addon's generic objects (server.rs `pollOutput`).
// `json` and `sse` are the core's header pairs of each body kind, copied into every
// transmit (each gets arrays of its own).
((json, sse) => {
  'use strict'
  const copy = (h) => {
    const out = new Array(h.length)
    for (let i = 0; i < h.length; i++) out[i] = [h[i][0], h[i][1]]
    return out
  }
  // Each maker pushes its object to `box` (the call's outbox).
  const transmit = (box, stream, httpStatus, isSse, endOfStream, bytes) => {
    box.push({ type: 'transmit', headers: copy(isSse ? sse : json), stream, httpStatus, kind: isSse ? 'sse' : 'json', endOfStream, bytes })
  }
  // `variables`: [name, value, name, value, …], set as own data properties (a `__proto__`
  // name too).
  const own = (pairs) => {
    const o = {}
    for (let i = 0; i < pairs.length; i += 2) {
      if (pairs[i] === '__proto__') Object.defineProperty(o, '__proto__', { value: pairs[i + 1], writable: true, enumerable: true, configurable: true })
      else o[pairs[i]] = pairs[i + 1]
    }
    return o
  }
  const readResource = (box, handle, uri, target, template, variables, auth, elicitationForm, elicitationUrl, sampling, roots) => {
    const capabilities = { elicitationForm, elicitationUrl, sampling, roots }
    box.push(target === 'template'
      ? { type: 'readResource', handle, uri, target, template, variables: own(variables), auth, capabilities, retry: null }
      : { type: 'readResource', handle, uri, target, auth, capabilities, retry: null })
  }
  return [transmit, readResource]
})
