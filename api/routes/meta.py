"""Prometheus metrics (the OpenAPI document and its docs page are served under /schema)."""

from __future__ import annotations

from litestar.plugins.prometheus import PrometheusController


class MetricsController(PrometheusController):
    path = "/metrics"
    include_in_schema = False


HANDLERS = [MetricsController]
