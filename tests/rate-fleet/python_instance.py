"""One Python instance of the rate-limit fleet test (test_rate_fleet.py): a stdio server with an
``echo`` tool behind ``RedisRateLimit``, the core's bucket in Redis.

    python tests/rate-fleet/python_instance.py <redis-url> <prefix> <rate> <burst> <caller>
"""

from __future__ import annotations

import sys

import redis

from mcp_context.server import App
from mcp_context.telemetry import RedisRateLimit

url, prefix, rate, burst, caller = sys.argv[1:6]
app = App("rate")


@app.tool()
def echo() -> str:
    return "python"


app.middleware(RedisRateLimit(redis.Redis.from_url(url), rate=float(rate), burst=float(burst), prefix=prefix))
app.run_stdio(auth=int(caller))
