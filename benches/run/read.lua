-- wrk script of ./bench.sh: every request is the same 2026-07-28 `resources/read` POST
-- (BENCH_URI, BENCH_ID), with the headers the era requires. wrk counts non-2xx answers;
-- bench.sh refuses a run that has any, and checks one answer's body before timing.
local uri = os.getenv("BENCH_URI")
wrk.method = "POST"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"_meta":{'
  .. '"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
  .. '"io.modelcontextprotocol/clientCapabilities":{}},"uri":"' .. uri .. '"}}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
wrk.headers["Mcp-Method"] = "resources/read"
wrk.headers["Mcp-Name"] = uri
