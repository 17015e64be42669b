// The Error subclasses thrown by the addon. Evaluated once per environment by errors.rs
// (as an expression: nothing leaks into the global scope) and exported from the module.
// The last element is the environment's JSON.parse, kept for building results in one call.
// Declared for TypeScript in dts-header.d.ts.
(() => {
  'use strict'
  class McpContextError extends Error {
    constructor(message, code) {
      super(message)
      /** Stable identifier: a string such as `ERR_TEMPLATE_UNCLOSED_EXPRESSION`. */
      this.code = code
    }
  }
  class TemplateError extends McpContextError {
    constructor(message, code, position, byteOffset) {
      super(message, code)
      /** UTF-16 index into the template source (a JS string index). */
      this.position = position
      /** The same place as a UTF-8 byte offset. */
      this.byteOffset = byteOffset
    }
  }
  class McpError extends McpContextError {
    constructor(message, code, data, httpStatus) {
      super(message, code)
      /** The error's `data` member (parsed JSON), or `undefined`. */
      this.data = data
      /** The HTTP status that goes with it on Streamable HTTP. */
      this.httpStatus = httpStatus
    }
  }
  class OriginError extends McpContextError {
    constructor(message, code, httpStatus) {
      super(message, code)
      /** The HTTP status to reject the request with (400 or 403). */
      this.httpStatus = httpStatus
    }
  }
  for (const cls of [McpContextError, TemplateError, McpError, OriginError]) {
    Object.defineProperty(cls.prototype, 'name', {
      value: cls.name, writable: true, enumerable: false, configurable: true,
    })
  }
  return [McpContextError, TemplateError, McpError, OriginError, JSON.parse]
})()
