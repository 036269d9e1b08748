"""Benchmarks: ``python -m bench`` (``make bench``) prints numbers; it is not a test suite.

It works in a throwaway database (``var/bench/bench.sqlite3``, or a ``percentile_bench`` database
on the PostgreSQL server of ``DATABASE_URL``), created and migrated at the start and dropped at
the end, so the app's own data is never touched.
"""
