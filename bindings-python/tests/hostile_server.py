"""A hostile MCP server on stdio for tests/test_hostile.py: a correct discover answer, then
reads answered with JSON Python cannot represent (an integer of 5,000 digits, nesting 100,000
deep), garbage, or nothing. The URI of a read picks the attack."""

import json
import sys

META = {"io.modelcontextprotocol/serverInfo": {"name": "hostile", "version": "0"}}
DISCOVER = {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"resources": {}}, "ttlMs": 0, "cacheScope": "public", "_meta": META}


def send(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    mid = json.dumps(msg["id"])
    if msg["method"] == "server/discover":
        send(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": DISCOVER}))
        continue
    uri = msg.get("params", {}).get("uri", "")
    head = '{"jsonrpc":"2.0","id":' + mid + ',"result":{"resultType":"complete","ttlMs":0,"cacheScope":"private",'
    if uri == "x://bigint":
        send(head + '"contents":[{"uri":"x://bigint","text":"n","_meta":{"n":' + "9" * 5000 + "}}]}}")
    elif uri == "x://deep":
        send(head + '"contents":[{"uri":"x://deep","text":"n","_meta":{"d":' + "[" * 100_000 + "]" * 100_000 + "}}]}}")
    elif uri == "x://bigerror":
        send('{"jsonrpc":"2.0","id":' + mid + ',"error":{"code":-32602,"message":"m","data":{"n":' + "9" * 5000 + "}}}")
    elif uri == "x://garbage":
        send("\x00\xff{not json")
        send(head + '"contents":[{"uri":"x://garbage","text":"ok"}]}}')
    elif uri == "x://ok":
        send(head + '"contents":[{"uri":"x://ok","text":"ok"}]}}')
    # anything else: never answered (the call times out)
