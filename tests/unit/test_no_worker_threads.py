"""No request leaves the event loop for a worker thread on its way through the app.

Litestar runs a plain function given as a hook, a guard, a dependency or a handler in a
worker thread (`AsyncCallable`, unless told `sync_to_thread=False`): for a few microseconds of
work it pays a thread hop and the GIL's contention with the loop, and the hook of every answer
did so twice an answer (about a tenth of the API's CPU under load). What is meant to run in a
thread (the audit's re-execution) asks for it explicitly, inside its handler.
"""

from __future__ import annotations

from litestar import Litestar
from litestar.handlers import HTTPRouteHandler
from litestar.utils.sync import AsyncCallable

from api.app import create_app


def _handlers(app: Litestar) -> list[HTTPRouteHandler]:
    return [
        handler
        for route in app.routes
        for handler in getattr(route, "route_handlers", [])
        if isinstance(handler, HTTPRouteHandler)
    ]


def test_every_hook_of_every_answer_runs_on_the_loop() -> None:
    app = create_app()
    threaded = [hook.func for hook in app.before_send if isinstance(hook, AsyncCallable)]
    threaded += [hook.func for hook in app.after_exception if isinstance(hook, AsyncCallable)]
    assert threaded == []


def test_no_guard_dependency_or_handler_runs_in_a_thread() -> None:
    app = create_app()
    threaded: list[str] = []
    for handler in _handlers(app):
        name = f"{sorted(handler.http_methods)} {handler.paths}"
        if handler.has_sync_callable and handler.sync_to_thread:
            threaded.append(f"{name}: its handler")
        threaded += [
            f"{name}: guard {guard.func.__name__}"
            for guard in handler.resolve_guards()
            if isinstance(guard, AsyncCallable)
        ]
        threaded += [
            f"{name}: dependency {key}"
            for key, provide in handler.resolve_dependencies().items()
            if isinstance(provide.dependency, AsyncCallable)
        ]
    assert _handlers(app), "the app has no HTTP handler to look at"
    assert threaded == []


def test_a_plain_function_hook_would_be_seen() -> None:
    """The check above can fail: Litestar wraps a plain function, never a coroutine."""

    def plain(message: object, scope: object) -> None:
        return None

    async def coroutine(message: object, scope: object) -> None:
        return None

    app = Litestar(route_handlers=[], before_send=[plain, coroutine])
    wrapped = [isinstance(hook, AsyncCallable) for hook in app.before_send]
    assert wrapped == [True, False]
