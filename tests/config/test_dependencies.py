"""Dependencies (issue 9, item 13): the .in files are edited by hand, the .txt files are their
hashed locks, and `make install` refuses anything whose hash is not recorded."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?==([^\s;\\]+)")


def _name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins_in(path: Path) -> dict[str, str]:
    """Package -> version of the ``name==version`` lines of a hand-edited .in file."""
    pins = {}
    for line in path.read_text().splitlines():
        match = PIN.match(line.strip())
        if match:
            pins[_name(match[1])] = match[2]
    return pins


def _lock(path: Path) -> dict[str, tuple[str, list[str]]]:
    """Package -> (version, hashes) of a pip-compile lock (continuation lines joined)."""
    text = path.read_text().replace("\\\n", " ")
    locked = {}
    for line in text.splitlines():
        if not line or line.lstrip().startswith("#"):
            continue
        match = PIN.match(line.strip())
        assert match, f"{path.name}: not a pinned requirement: {line!r}"
        locked[_name(match[1])] = (match[2], re.findall(r"--hash=sha256:([0-9a-f]{64})", line))
    return locked


@pytest.mark.parametrize("lock, source", [("requirements.txt", "requirements.in"),
                                          ("requirements-dev.txt", "requirements-dev.in")])
def test_every_locked_package_is_pinned_with_hashes(lock, source):
    locked = _lock(ROOT / lock)
    assert locked, lock
    for name, (version, hashes) in locked.items():
        assert hashes, f"{lock}: {name}=={version} has no --hash"
    for name, version in _pins_in(ROOT / source).items():
        assert name in locked, f"{source} pins {name}, missing from {lock}: run `make lock`"
        assert locked[name][0] == version, f"{name}: {source} says {version}, {lock} "\
            f"{locked[name][0]}: run `make lock`"


def test_the_dev_lock_holds_the_runtime_lock():
    runtime, dev = _lock(ROOT / "requirements.txt"), _lock(ROOT / "requirements-dev.txt")
    assert {n: v for n, (v, _) in runtime.items()} == \
        {n: dev[n][0] for n in runtime if n in dev}
    assert set(runtime) <= set(dev)


def test_make_installs_the_locks_with_require_hashes_and_can_relock():
    makefile = (ROOT / "Makefile").read_text()
    assert "--require-hashes -r requirements-dev.txt" in makefile
    assert re.search(r"^lock:", makefile, re.M)
    assert "--generate-hashes" in makefile
