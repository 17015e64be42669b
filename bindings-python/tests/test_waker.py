"""The output-ready signal: an answer given 10 ms after its event is on the wire within
100 ms, drained only because the machine's waker said so (no input arrives meanwhile)."""

import asyncio
import json
import time

import pytest

from mcp_context import ReadResource, ServerMachine, Transmit

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}


def now_ms() -> int:
    return time.monotonic_ns() // 1_000_000


def test_answer_after_async_work_is_written_at_once():
    async def main():
        loop = asyncio.get_running_loop()
        m = ServerMachine(forward_unlisted_reads=True, declare_resources=True)
        wire: list[tuple[float, bytes]] = []
        tasks = []

        async def answer(ev):
            await asyncio.sleep(0.01)
            m.respond_read(ev.handle, [{"uri": ev.uri, "text": "late"}])  # no drain here

        def drain():
            while (o := m.poll_output()) is not None:
                if isinstance(o, Transmit):
                    wire.append((time.monotonic(), o.bytes))
                elif isinstance(o, ReadResource):
                    tasks.append(loop.create_task(answer(o)))

        wakes = []
        m.set_waker(lambda: (wakes.append(1), loop.call_soon(drain)))
        t0 = time.monotonic()
        req = {"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "x://a", "_meta": META}}
        m.handle_message(json.dumps(req).encode(), now_ms())
        assert m.has_output()
        for _ in range(100):
            if wire:
                break
            await asyncio.sleep(0.005)
        assert wire, "the answer never reached the wire"
        t, raw = wire[0]
        assert json.loads(raw)["result"]["contents"][0]["text"] == "late"
        assert t - t0 < 0.1
        assert len(wakes) >= 2  # the event, then the answer

    asyncio.run(main())


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_waker_must_be_callable_and_errors_do_not_escape():
    m = ServerMachine()
    try:
        m.set_waker(42)
    except TypeError:
        pass
    else:
        raise AssertionError("a non-callable waker was accepted")
    m.set_waker(lambda: 1 / 0)  # reported to sys.unraisablehook, never raised into the call
    m.handle_message(b"{}", now_ms())
    assert m.poll_output() is not None
