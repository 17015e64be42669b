/* C-ABI smoke test of the Swift binding: compiles the generated MCPContextFFI.h with a plain
 * C compiler (gcc: -D_Nonnull= -D_Nullable=, clang-only qualifiers) and calls the library the
 * way the Swift code does. Run by scripts/swift-test.sh. */
#include <stdio.h>
#include <string.h>

#include "MCPContextFFI.h"

static int failures = 0;
#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "FAIL line %d: %s\n", __LINE__, #cond);            \
            failures++;                                                        \
        }                                                                      \
    } while (0)

static RustBuffer from_str(const char *s) {
    RustCallStatus st = {0};
    ForeignBytes b = {(int32_t)strlen(s), (const uint8_t *)s};
    RustBuffer buf = ffi_mcp_context_ffi_rustbuffer_from_bytes(b, &st);
    CHECK(st.code == 0);
    return buf;
}

static int buf_eq(RustBuffer b, const void *bytes, size_t len) {
    return b.len == len && (len == 0 || memcmp(b.data, bytes, len) == 0);
}

static void free_buf(RustBuffer b) {
    RustCallStatus st = {0};
    ffi_mcp_context_ffi_rustbuffer_free(b, &st);
    CHECK(st.code == 0);
}

int main(void) {
    RustCallStatus st = {0};
    CHECK(ffi_mcp_context_ffi_uniffi_contract_version() == 30);

    RustBuffer v = uniffi_mcp_context_ffi_fn_func_protocol_version(&st);
    CHECK(st.code == 0 && buf_eq(v, "2026-07-28", 10));
    free_buf(v);

    /* An object: construct, call a method, free. Strings cross as raw UTF-8. */
    const char *src = "repo://{owner}/{repo}";
    uint64_t t = uniffi_mcp_context_ffi_fn_constructor_uritemplate_new(from_str(src), &st);
    CHECK(st.code == 0 && t != 0);
    RustBuffer s = uniffi_mcp_context_ffi_fn_method_uritemplate_source(t, &st);
    CHECK(st.code == 0 && buf_eq(s, src, strlen(src)));
    free_buf(s);
    uniffi_mcp_context_ffi_fn_free_uritemplate(t, &st);
    CHECK(st.code == 0);

    /* A typed error: code 1 (CALL_ERROR) and the serialized TemplateError.Parse
     * (variant 1, kind 1 = unclosedExpression, byteOffset 1), all big-endian. */
    RustCallStatus err = {0};
    uniffi_mcp_context_ffi_fn_constructor_uritemplate_new(from_str("a{b"), &err);
    static const unsigned char expected[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1};
    CHECK(err.code == 1 && buf_eq(err.errorBuf, expected, sizeof expected));
    free_buf(err.errorBuf);

    printf("c-smoke: %s (%d failures)\n", failures ? "FAILED" : "ok", failures);
    return failures != 0;
}
