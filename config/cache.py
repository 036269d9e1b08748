"""The cache's Redis backend (settings.CACHES when REDIS_URL is set): Django's, with one redis
client per connection pool, built once, rather than a new one for every cache call. A redis-py
client holds no connection of its own (it takes one from the pool for each command), so one is
shared by every thread; building one costs about 0.2 ms, which a cached refetch of an encounter
fragment (one GET, encounters.pages) paid on each request."""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class _Client(RedisCacheClient):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]  # Django's, unstubbed
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(  # type: ignore[attr-defined]
                connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = _Client
