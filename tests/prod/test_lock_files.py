"""A fresh machine gets exactly the tested versions: the lock files pin every dependency that
pyproject.toml declares (requirements.lock for `make setup`, docker/requirements.lock for the image)."""

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _name(requirement: str) -> str:
    return re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def _pinned(lock: Path) -> dict[str, str]:
    pins = {}
    for line in lock.read_text().splitlines():
        if "==" in line and not line.startswith((" ", "#")):
            name, version = line.split("==", 1)
            pins[name.strip().lower().replace("_", "-")] = version.strip()
    return pins


@pytest.mark.parametrize(
    "lock, groups",
    [("requirements.lock", ["dependencies", "test"]), ("docker/requirements.lock", ["dependencies"])],
)
def test_every_declared_dependency_is_pinned(lock, groups):
    pins = _pinned(ROOT / lock)
    declared = list(PROJECT["dependencies"]) + (
        PROJECT["optional-dependencies"]["test"] if "test" in groups else []
    )
    missing = [req for req in declared if _name(req) not in pins]
    assert missing == []


def test_the_image_and_the_test_machine_run_the_same_versions():
    image, tested = _pinned(ROOT / "docker/requirements.lock"), _pinned(ROOT / "requirements.lock")
    assert {name: version for name, version in image.items() if tested.get(name) != version} == {}
