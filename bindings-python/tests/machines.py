"""A client machine wired to a server machine in memory (no I/O): the test harness."""

import json

from mcp_context import ClientMachine, ServerMachine, Transmit


class Pair:
    """Moves bytes between a ClientMachine and a ServerMachine; collects what each side's
    application sees. `app(event)` answers server events (it gets the server too)."""

    def __init__(self, server: ServerMachine, client: ClientMachine | None = None, app=None, auth: int = 0):
        self.server = server
        self.client = client or ClientMachine("test-host", "1.0")
        self.app = app
        self.auth = auth
        self.now = 1_000
        self.client_events = []
        self.server_events = []
        self.wire = []  # every server -> client message, decoded, in order

    def pump(self):
        moved = True
        while moved:
            moved = False
            while (out := self.client.poll_output()) is not None:
                moved = True
                if hasattr(out, "bytes") and type(out).__name__ == "ClientTransmit":
                    self.server.handle_message(out.bytes, self.now, auth=self.auth)
                else:
                    self.client_events.append(out)
            while (out := self.server.poll_output()) is not None:
                moved = True
                if isinstance(out, Transmit):
                    assert b"\n" not in out.bytes
                    self.wire.append(json.loads(out.bytes))
                    self.client.handle_message(out.bytes, self.now)
                else:
                    self.server_events.append(out)
                    if self.app is not None:
                        self.app(self.server, out)
        events, self.client_events = self.client_events, []
        return events

    def call(self, start):
        """Starts a call (`start(client, now)` returns its id) and returns the events of that call."""
        call = start(self.client, self.now)
        events = self.pump()
        return call, [e for e in events if getattr(e, "call", None) == call or getattr(e, "subscription", None) == call]
