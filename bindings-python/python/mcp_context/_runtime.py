"""``mcp_context.server``'s runtime: the machine, its host and the handler tasks of one running
``App``; events dispatched to handlers, answers given back to the machine."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import _core
from ._core import CallTool, Cancelled, Complete, GetPrompt, ReadResource, Request, ServerMachine
from ._host import MachineHost
from ._handlers import (
    AskInput,
    Context,
    InvalidParams,
    NotFound,
    _DYNAMIC_LISTS,
    _PLAIN,
    _contents,
    _dump,
    _prompt_result,
    _tool_result,
    log,
)

if TYPE_CHECKING:
    from .server import App


class Runtime:
    """The machine, its host and the handler tasks of one running server."""

    def __init__(self, app: App) -> None:
        self.app = app
        config = dict(app._config)
        if any(r.completers for r in app._templates.values()) or app._completion is not None:
            config.setdefault("completion_events", True)
        if app._listers and _DYNAMIC_LISTS:
            config.setdefault("dynamic_resources", True)
        self.machine = ServerMachine(**config)
        for register in app._registrations:
            register(self.machine)
        for method in app._methods:
            self.machine.add_method(method)
        self.host = MachineHost(self.machine, self.dispatch)
        self.layers = None
        if app._sinks or app._middleware or app._response_cap is not None:
            from .telemetry import Layers

            self.layers = Layers(list(app._middleware), list(app._sinks))
            self.machine.gate(bool(app._middleware or self.layers.tracing))
            _core.observe(self.machine, bool(app._sinks))
            _core.limit_responses(self.machine, app._response_cap)
            if app._sinks:
                self.host.observed = self.layers.deliver
        self.tasks: dict[int, tuple[asyncio.Task[Any], Context]] = {}
        self._gated: Any = None  # the Call of the request the gate admitted, for its handler
        self._hooks: set[asyncio.Task[Any]] = set()  # async after hooks still running
        self.background: list[asyncio.Task[Any]] = []
        app._runtime = self
        for fn in app._startup if self.host.loop is not None else ():
            r = fn()
            if inspect.isawaitable(r):
                self.background.append(self.host.loop.create_task(r))

    # the gate (docs/rules.md §26.7): the middleware meets every request first
    @property
    def gating(self) -> bool:
        """Whether requests stop at the gate: there is middleware, or a tracing sink (its
        request span opens there and is current while the handler runs)."""
        return self.layers is not None and bool(self.layers.middleware or self.layers.tracing)

    def message(self, data: bytes, now: int, **ctx: Any) -> Any:
        """One message through the gate, then the machine (``handle_message``); a coroutine
        when a ``before`` hook awaits (the runner schedules it: :meth:`gated`)."""
        m = self.machine
        g = m.gate_request(data, now, **ctx) if self.gating else None
        if g is None:
            return self.host.call(m.handle_message, data, now, **ctx)
        return self.gated(g, data, now, ctx)

    def gated(self, g: Any, data: bytes, now: int, ctx: dict[str, Any]) -> Any:
        """The request ``g`` (from ``gate_request`` on ``data``) through the middleware, then
        the machine: ``"request"`` when refused, the input's value when admitted, or a
        coroutine giving either once an awaiting ``before`` hook is done."""
        m, call = self.machine, self.host.call
        c = self._gate(g)
        if type(c) is not tuple:
            return self._later(c, lambda: call(m.handle_message, data, now, **ctx), False)
        if c[0] is None:  # refused: the machine answered
            return "request"
        return self._admitted(c[0], lambda: call(m.handle_message, data, now, **ctx), c[1])

    def http(self, method: str, path: str, headers: Any, body: bytes, now: int, *, stream: int, auth: int = 0, peer: Any = None, scopes: Any = None) -> Any:
        """One HTTP request through the gate, then the machine (``handle_http``): the
        ``HttpResponse`` to write, or ``None`` (the answer comes on ``stream``); a coroutine
        giving either when a ``before`` hook awaits."""
        m, call = self.machine, self.host.call

        def run() -> Any:
            return call(m.handle_http, method, path, headers, body, now, stream=stream, auth=auth, peer=peer, scopes=scopes)

        g = m.http_gate_request(method, path, headers, body, now, stream=stream, auth=auth) if self.gating else None
        if g is None:
            return run()
        c = self._gate(g, http=True)
        if type(c) is not tuple:
            return self._later(c, run, True)
        if len(c) == 2:
            return self._admitted(c[0], run, c[1])
        return c[0]

    def _gate(self, g: Any, http: bool = False) -> Any:
        """The request's span opens (tracing sinks), then the chain's ``before`` hooks:
        admitted (``gate_admit`` done), ``(call, span_context)``; refused, ``(answer,)`` (the
        machine answered: ``None``, or over HTTP the response). A hook that returns an
        awaitable makes it a coroutine giving the same once the rest of the chain ran."""
        from .telemetry import Call, Refuse

        layers = self.layers
        span = layers.start(g, layers.trace_headers.get(g.stream) if http else None) if layers.tracing else None
        c = Call(g.method, g.target, g.caller, self.app._principals.get(g.caller))
        i = 0
        try:
            for mw in layers.middleware:
                i += 1
                r = mw.before(c)
                if r is not None and inspect.isawaitable(r):
                    return self._gate_awaiting(g, c, span, r, i, http)
        except Refuse as r:
            return self._refuse(g, c, r, http)
        except Exception as e:  # noqa: BLE001 - a broken hook refuses its request, never the server
            log.exception("middleware before failed")
            return self._refuse(g, c, Refuse(-32603, str(e)), http)
        for k, v in c.annotations:
            g.annotate(k, v)
        self.machine.gate_admit(g)  # the bytes go to the machine next, before any other input
        return c, span

    async def _gate_awaiting(self, g: Any, c: Any, span: Any, pending: Any, i: int, http: bool) -> Any:
        """The rest of :meth:`_gate` once a hook awaits: the request's span is current while
        the hooks run (their own spans are its children)."""
        from .telemetry import Refuse

        token = None
        if span is not None:
            from opentelemetry import context as otel_context

            token = otel_context.attach(span)
        try:
            await pending
            for mw in self.layers.middleware[i:]:
                r = mw.before(c)
                if r is not None and inspect.isawaitable(r):
                    await r
        except Refuse as r:
            return self._refuse(g, c, r, http)
        except Exception as e:  # noqa: BLE001
            log.exception("middleware before failed")
            return self._refuse(g, c, Refuse(-32603, str(e)), http)
        finally:
            if token is not None:
                otel_context.detach(token)
        return self._pass(g, c, span)

    def _pass(self, g: Any, c: Any, span: Any) -> tuple[Any, Any]:
        for k, v in c.annotations:
            g.annotate(k, v)
        self.machine.gate_admit(g)  # the bytes go to the machine next, before any other input
        return c, span

    def _refuse(self, g: Any, c: Any, r: Any, http: bool) -> tuple[Any]:
        for k, v in c.annotations:
            g.annotate(k, v)
        if r.code == _core.RATE_LIMITED:
            self.layers.refused_rate(c.caller)
        self._after(c, r)
        m = self.machine
        if http:
            return (self.host.call(m.http_gate_refuse, g, r.code, r.message),)
        self.host.call(m.gate_refuse, g, r.code, r.message)
        return (None,)

    async def _later(self, pending: Any, run: Callable[[], Any], http: bool) -> Any:
        """An awaiting gate's outcome, then (admitted) the machine input at once: nothing
        runs between ``gate_admit`` and ``run``."""
        c = await pending
        if len(c) == 2:
            return self._admitted(c[0], run, c[1])
        return c[0] if http else "request"

    def _admitted(self, c: Any, run: Callable[[], Any], span: Any = None) -> Any:
        """Runs the machine input of an admitted request: its handler takes ``c`` (its
        ``after`` hooks run when it answers); a request the core answered runs them now.
        ``span``: the request span's context, current while the handler starts (a task it
        becomes copies it), so the handler's own spans are its children."""
        token = None
        if span is not None:
            from opentelemetry import context as otel_context

            token = otel_context.attach(span)
        self._gated = c if self.layers.middleware else None
        try:
            return run()
        finally:
            if token is not None:
                otel_context.detach(token)
            if self._gated is c:
                self._gated = None
                self._after(c, None)

    def _after(self, c: Any, error: BaseException | None) -> None:
        """The chain's ``after`` hooks in reverse order; from the first that returns an
        awaitable on, the rest run in a task (an answer never waits for them)."""
        chain = self.layers.middleware
        k = 0
        for mw in reversed(chain):
            k += 1
            r = mw.after(c, error)
            if r is not None and inspect.isawaitable(r):
                self._spawn(self._after_awaiting(c, error, r, len(chain) - k))
                return

    async def _after_awaiting(self, c: Any, error: BaseException | None, pending: Any, i: int) -> None:
        chain = self.layers.middleware
        try:
            await pending
            for j in range(i - 1, -1, -1):
                r = chain[j].after(c, error)
                if r is not None and inspect.isawaitable(r):
                    await r
        except Exception:  # noqa: BLE001 - nothing to answer any more
            log.exception("middleware after failed")

    def _spawn(self, coro: Any) -> None:
        """A task the runtime holds until it ends (the loop keeps only weak references)."""
        if self.host.loop is None:
            coro.close()
            log.error("an async middleware hook needs a running loop")
            return
        task = self.host.loop.create_task(coro)
        self._hooks.add(task)
        task.add_done_callback(self._hooks.discard)

    # events -> handlers
    def dispatch(self, ev: Any) -> None:
        t = type(ev)
        if t is ReadResource:
            self._read(ev)
        elif t is GetPrompt:
            self._prompt(ev)
        elif t is Complete:
            self._complete(ev)
        elif t is CallTool:
            self._call_tool(ev)
        elif t is Request:
            self._request(ev)
        elif _DYNAMIC_LISTS and t is _core.ListResources:
            self._list(ev)
        elif t is Cancelled:
            running = self.tasks.pop(int(ev.handle), None)
            if running is not None:
                running[1]._cancel()
                running[0].cancel()

    def _ctx(self, ev: Any) -> Context:
        return Context(self, ev.handle, ev.auth, getattr(ev, "capabilities", frozenset()), getattr(ev, "retry", None))

    def _read(self, ev: ReadResource) -> None:
        res = self.app._templates.get(ev.template) if ev.template is not None else self.app._statics.get(ev.uri)
        if res is None:
            self.host.call(self.machine.fail, ev.handle, "not_found")
            return
        args = ev.variables
        if res.template is not None and ev.target != "template":
            args = res.template.match(ev.uri) or {}
        uri, mime = ev.uri, res.mime
        sig = res.sig
        call, m = self.host.call, self.machine
        self._run(ev, lambda ctx: sig.call(ctx, args), lambda h, v: call(m.respond_read, h, _contents(uri, mime, v)))

    def _prompt(self, ev: GetPrompt) -> None:
        p = self.app._prompts.get(ev.name)
        call, m = self.host.call, self.machine
        if p is None:  # on the machine without a handler here: the core's "Unknown prompt"
            call(m.fail, ev.handle, "not_found")
            return
        for arg, allowed in p.choices.items():
            v = ev.arguments.get(arg)
            if v is not None and v not in allowed:
                call(m.fail, ev.handle, "invalid_params", f"{arg} must be one of {', '.join(allowed)}, not {v!r}")
                return
        desc = p.description
        sig, arguments = p.sig, ev.arguments
        self._run(ev, lambda ctx: sig.call(ctx, arguments), lambda h, v: call(m.respond_prompt, h, _prompt_result(v, desc)))

    def _list(self, ev: Any) -> None:
        """One page of the templates' ``list()`` items (``resources/list`` after the
        registered resources), in registration order, ``page_size`` items per page. The
        cursor is the core's ``app_cursor(uriTemplate, offset)``."""
        call, m = self.host.call, self.machine
        listers = self.app._listers
        i, offset = 0, 0
        if ev.cursor is not None:
            pos = _core.parse_app_cursor(ev.cursor)
            keys = [res.uri for res, _ in listers]
            if pos is None or pos[0] not in keys:
                call(m.fail, ev.handle, "not_found")  # "Invalid cursor"
                return
            i, offset = keys.index(pos[0]), pos[1]
        size = m.page_size
        page: list[dict[str, Any]] = []
        for res, lister in listers[i:]:
            items = list(lister())
            end = offset + size - len(page)
            for item in items[offset:end]:
                item = _dump(item)
                if isinstance(item, str):
                    item = {"uri": item, "name": item}
                if res.mime and "mimeType" not in item:
                    item = {**item, "mimeType": res.mime}
                page.append(item)
            if end < len(items):
                call(m.respond_list, ev.handle, page, _core.app_cursor(res.uri, end))
                return
            offset = 0
        call(m.respond_list, ev.handle, page, None)

    def _call_tool(self, ev: CallTool) -> None:
        """A tool call the core checked (registered, visible, arguments an object with every
        required property): the handler's value becomes a ``CallToolResult``, an exception a
        tool error (``isError``), ``InvalidParams``/``McpError``/``AskInput`` their answers."""
        tool = self.app._tools.get(ev.name)
        call, m = self.host.call, self.machine
        if tool is None:  # registered by another App on this machine: nothing to run
            call(m.fail, ev.handle, "not_found")
            return
        sig, args = tool.sig, ev.arguments
        self._run(ev, lambda ctx: sig.call(ctx, args), lambda h, v: call(m.respond_tool, h, _tool_result(v)))

    def _request(self, ev: Request) -> None:
        call, m, app = self.host.call, self.machine, self.app
        fn = app._methods.get(ev.method)
        if fn is None:
            call(m.fail, ev.handle, "not_found")
            return
        params = ev.params
        two = len(inspect.signature(fn).parameters) >= 2
        self._run(ev, (lambda ctx: fn(params, ctx)) if two else (lambda ctx: fn(params)), lambda h, v: call(m.respond_result, h, _dump(v)))

    def _complete(self, ev: Complete) -> None:
        res = self.app._templates.get(ev.template) if ev.template is not None else None
        fn = res.completers.get(ev.argument) if res is not None else None
        if fn is not None:
            two = len(inspect.signature(fn).parameters) >= 2
            value, context = ev.value, dict(ev.context)
            call: Callable[[Context], Any] = (lambda ctx: fn(value, context)) if two else (lambda ctx: fn(value))
        elif self.app._completion is not None:
            ref = {"type": "ref/prompt", "name": ev.prompt} if ev.prompt is not None else {"type": "ref/resource", "uri": ev.template}
            argument = {"name": ev.argument, "value": ev.value}
            context = {"arguments": dict(ev.context)} if ev.context else None
            comp = self.app._completion
            call = lambda ctx: comp(ref, argument, context)  # noqa: E731
        else:
            self.host.call(self.machine.respond_completion, ev.handle, [])
            return

        def answer(h: Any, v: Any) -> None:
            v = _dump(v)
            if isinstance(v, dict):
                v = v.get("values", [])
            self.host.call(self.machine.respond_completion, h, [str(x) for x in (v or [])])

        self._run(ev, call, answer)

    # running a handler: inline when it is a plain function, as a task when it awaits
    def _run(self, ev: Any, call: Callable[[Context], Any], answer: Callable[[Any, Any], None]) -> None:
        ctx = self._ctx(ev)
        handle = ev.handle
        if self.layers is not None and self.layers.middleware:
            call, answer = self._wrap(ev, call, answer)
            if call is None:
                return
        try:
            value = call(ctx)
        except BaseException as e:  # noqa: BLE001 - every failure is an answer
            self._fail(handle, e)
            return
        if type(value) not in _PLAIN and inspect.isawaitable(value):
            if self.host.loop is None:
                getattr(value, "close", lambda: None)()
                self._fail(handle, RuntimeError("an async handler needs a running loop"))
                return
            task = self.host.loop.create_task(self._finish(handle, value, answer))
            self.tasks[int(handle)] = (task, ctx)
            return
        self._answer(handle, value, answer)

    def _wrap(self, ev: Any, call: Any, answer: Any) -> tuple[Any, Any]:
        """The middleware around one handler: ``before`` ran at the gate (else now: a
        ``Refuse`` answers at once, ``(None, None)``), ``after`` when the handler answered
        or failed."""
        from .telemetry import Refuse, call_of

        chain = self.layers.middleware
        c = self._gated  # the gate admitted it: its before hooks ran there
        self._gated = None
        if c is None:
            c = call_of(ev, self.app._principals.get(int(getattr(ev, "auth", 0))))
            try:
                for i, m in enumerate(chain):
                    r = m.before(c)
                    if r is not None and inspect.isawaitable(r):
                        return self._wrap_awaiting(ev, c, r, i + 1, call), answer
            except Refuse as r:
                self._refuse_event(ev, c, r)
                return None, None
            for k, v in c.annotations:
                _core.annotate(self.machine, ev.handle, k, v)

        def called(ctx: Context) -> Any:
            try:
                value = call(ctx)
            except BaseException as e:
                self._after(c, e)
                raise
            if type(value) not in _PLAIN and inspect.isawaitable(value):
                return self._after_awaited(c, value)
            self._after(c, None)
            return value

        return called, answer

    def _refuse_event(self, ev: Any, c: Any, r: Any) -> None:
        for k, v in c.annotations:
            _core.annotate(self.machine, ev.handle, k, v)
        if r.code == _core.RATE_LIMITED:
            self.layers.refused_rate(c.caller)
        self._after(c, r)
        self.host.call(self.machine.fail, ev.handle, "application", r.message, code=r.code)

    def _wrap_awaiting(self, ev: Any, c: Any, pending: Any, i: int, call: Any) -> Any:
        """:meth:`_wrap` once a ``before`` hook awaits: the handler becomes a coroutine that
        finishes the chain first (a refusal answers; the handler's task is then dropped)."""
        from .telemetry import Refuse

        async def called(ctx: Context) -> Any:
            try:
                await pending
                for m in self.layers.middleware[i:]:
                    r = m.before(c)
                    if r is not None and inspect.isawaitable(r):
                        await r
            except Refuse as r:
                self.tasks.pop(int(ev.handle), None)
                self._refuse_event(ev, c, r)
                return None
            for k, v in c.annotations:
                _core.annotate(self.machine, ev.handle, k, v)
            try:
                value = call(ctx)
                if type(value) not in _PLAIN and inspect.isawaitable(value):
                    value = await value
            except BaseException as e:
                self._after(c, e)
                raise
            self._after(c, None)
            return value

        return called

    async def _after_awaited(self, c: Any, awaitable: Any) -> Any:
        try:
            value = await awaitable
        except BaseException as e:
            self._after(c, e)
            raise
        self._after(c, None)
        return value

    async def _finish(self, handle: Any, awaitable: Any, answer: Callable[[Any, Any], None]) -> None:
        try:
            value = await awaitable
        except asyncio.CancelledError:
            return  # the machine already answered (cancelled / timed out / stream closed)
        except BaseException as e:  # noqa: BLE001
            if self.tasks.pop(int(handle), None) is not None:
                self._fail(handle, e)
            return
        if self.tasks.pop(int(handle), None) is not None:
            self._answer(handle, value, answer)

    def _answer(self, handle: Any, value: Any, answer: Callable[[Any, Any], None]) -> None:
        try:
            answer(handle, value)
        except _core.RespondError as r:
            # Late: nothing to send. Any other refusal is the handler's bug, which the
            # machine already answered -32603.
            if not r.late:
                log.error("handler result refused: %s", r)
        except Exception as e:  # noqa: BLE001 - a result the spec refuses
            log.exception("handler result refused")
            self._fail(handle, e)

    def _fail(self, handle: Any, e: BaseException) -> None:
        call, m = self.host.call, self.machine
        try:
            if isinstance(e, AskInput):
                call(m.respond_input_required, handle, e.requests, e.state)
            elif isinstance(e, NotFound):
                call(m.fail, handle, "not_found", str(e) or None)
            elif isinstance(e, InvalidParams):
                call(m.fail, handle, "invalid_params", str(e) or None)
            elif isinstance(e, _core.McpError) and isinstance(getattr(e, "code", None), int):
                # The core maps the code (Failure::from_code): -32602, reserved, the app's own.
                call(m.fail, handle, "application", getattr(e, "message", None) or str(e), code=e.code)
            elif isinstance(e, asyncio.CancelledError):
                call(m.fail, handle, "internal")
            else:
                # The core decides: a tool error (isError, the message for the model) on a
                # tool call, -32603 without the message anywhere else.
                log.info("handler failed", exc_info=e)
                call(m.fail, handle, "handler", str(e) or type(e).__name__)
        except _core.RespondError as r:
            # Late: nothing to send. Any other refusal (e.g. input_required without state
            # keys) is the handler's bug, which the machine already answered -32603.
            if not r.late:
                log.error("answer refused: %s", r)

    async def drain_tasks(self) -> None:
        """Waits for every running handler (end of input on stdio)."""
        while self.tasks:
            await asyncio.gather(*(t for t, _ in list(self.tasks.values())), return_exceptions=True)
