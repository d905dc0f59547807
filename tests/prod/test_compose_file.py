"""docker/compose.yaml: the stack a big event runs. (CI also validates it with Debian's
docker-compose and the compose-spec JSON schema; these are the product's own requirements.)"""

import re
from pathlib import Path

import yaml
from django.conf import settings

DOCKER = Path(__file__).resolve().parents[2] / "docker"
COMPOSE = yaml.safe_load((DOCKER / "compose.yaml").read_text())
SERVICES = COMPOSE["services"]
APP_SERVICES = ["migrate", "web", "worker", "beat"]


def test_the_services_of_the_stack():
    assert set(SERVICES) == {"postgres", "redis", "migrate", "web", "worker", "beat", "proxy"}
    # Debian's docker-compose (v1) refuses a top-level name; the project name comes from docker/.env.
    assert "name" not in COMPOSE


def test_every_service_has_a_healthcheck():
    for name, service in SERVICES.items():
        assert service.get("healthcheck", {}).get("test"), f"{name} has no healthcheck"


def test_services_wait_for_what_they_need_to_be_healthy():
    def needs(name):
        return {dep: cond["condition"] for dep, cond in SERVICES[name].get("depends_on", {}).items()}

    assert needs("migrate") == {"postgres": "service_healthy"}
    for name in ("web", "worker", "beat"):
        assert needs(name) == {
            "postgres": "service_healthy",
            "redis": "service_healthy",
            "migrate": "service_completed_successfully",
        }, name
    assert needs("proxy") == {"web": "service_healthy"}


def test_web_and_workers_scale_and_beat_runs_the_clock_schedule():
    for name in ("web", "worker"):
        assert "ports" not in SERVICES[name] and "container_name" not in SERVICES[name], (
            f"{name} cannot scale"
        )
    assert SERVICES["web"]["command"][0] == "daphne"
    assert SERVICES["worker"]["command"][:4] == ["celery", "--app", "config.celery", "worker"]
    assert SERVICES["beat"]["command"][:4] == ["celery", "--app", "config.celery", "beat"]
    # The schedule beat runs lives in the settings: the clock tick every second.
    schedule = {entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert schedule["tournaments.tasks.advance_clocks"] == 1.0
    # Acknowledged after the task runs: a killed worker's task is delivered again.
    assert settings.CELERY_TASK_ACKS_LATE and settings.CELERY_TASK_REJECT_ON_WORKER_LOST


def test_app_services_are_configured_by_environment_for_production():
    for name in APP_SERVICES:
        env = SERVICES[name]["environment"]
        assert env["DJANGO_ENV"] == "production"
        assert env["DATABASE_URL"].startswith("postgres://") and "@postgres:5432/" in env["DATABASE_URL"]
        assert env["REDIS_URL"] == "redis://redis:6379/0"
        assert env["DJANGO_SECRET_KEY"].startswith("${DJANGO_SECRET_KEY:?"), "the secret must be required"


def test_every_required_variable_is_in_the_example_env_file():
    text = (DOCKER / "compose.yaml").read_text()
    required = set(re.findall(r"\$\{(\w+):\?", text))
    example = {
        line.split("=", 1)[0]
        for line in (DOCKER / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    }
    assert required and required <= example
    assert "COMPOSE_PROJECT_NAME" in example
