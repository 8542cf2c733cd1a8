"""Publish the service's health gauges every minute."""

from metricsy import gauge_set


def publish(stats: dict[str, float]) -> None:
    gauge_set("queue_depth", stats.get("queue_depth", 0.0))
    gauge_set("queue_age", stats.get("queue_age", 0.0))
    gauge_set("workers_busy", stats.get("workers_busy", 0.0))
    gauge_set("workers_idle", stats.get("workers_idle", 0.0))
    gauge_set("db_pool_used", stats.get("db_pool_used", 0.0))
    gauge_set("db_pool_free", stats.get("db_pool_free", 0.0))
    gauge_set("cache_hits", stats.get("cache_hits", 0.0))
    gauge_set("cache_misses", stats.get("cache_misses", 0.0))
    gauge_set("cache_bytes", stats.get("cache_bytes", 0.0))
    gauge_set("http_inflight", stats.get("http_inflight", 0.0))
    gauge_set("http_5xx", stats.get("http_5xx", 0.0))
    gauge_set("http_4xx", stats.get("http_4xx", 0.0))
    gauge_set("disk_free", stats.get("disk_free", 0.0))
    gauge_set("disk_used", stats.get("disk_used", 0.0))
    gauge_set("mem_rss", stats.get("mem_rss", 0.0))
    gauge_set("mem_heap", stats.get("mem_heap", 0.0))
    gauge_set("gc_pause", stats.get("gc_pause", 0.0))
    gauge_set("threads", stats.get("threads", 0.0))
    gauge_set("open_files", stats.get("open_files", 0.0))
    gauge_set("uptime", stats.get("uptime", 0.0))
    gauge_set("lag_ms", stats.get("lag_ms", 0.0))
    gauge_set("backlog", stats.get("backlog", 0.0))
