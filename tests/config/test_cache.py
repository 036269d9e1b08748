"""config.cache: the Redis cache builds one redis client per connection pool and shares it (between
calls and threads), with Django's behaviour otherwise."""

import os
import threading

import pytest
from django.core.cache.backends.redis import RedisCacheClient

from config.cache import RedisCache

pytestmark = pytest.mark.redis


@pytest.fixture
def cache():
    return RedisCache(os.environ.get("REDIS_URL", ""), {"KEY_PREFIX": "test-config-cache"})


def test_every_call_reuses_one_client_per_pool(cache):
    client = cache._cache.get_client()
    cache.set("k", {"a": 1}, 30)
    assert cache.get("k") == {"a": 1}
    assert cache.add("k", 2, 30) is False
    cache.delete("k")
    assert cache.get("k", "gone") == "gone"
    assert cache._cache.get_client(write=True) is client  # one server: one pool, one client
    assert isinstance(cache._cache, RedisCacheClient)


def test_threads_share_the_client_and_each_reads_its_own_key(cache):
    seen, errors = {}, []

    def work(n):
        try:
            cache.set(f"t{n}", n, 30)
            seen[n] = (cache.get(f"t{n}"), cache._cache.get_client())
        except Exception as exc:  # a thread's failure fails the test below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert {n: value for n, (value, _c) in seen.items()} == {n: n for n in range(8)}
    assert len({id(c) for _v, c in seen.values()}) == 1
    cache.delete_many([f"t{n}" for n in range(8)])
