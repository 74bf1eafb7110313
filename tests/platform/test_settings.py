"""The two run modes come from the environment alone."""

import os
import re
import subprocess
import sys

from django.conf import settings

PRODUCTION = {
    "DATABASE_URL": "postgres://capicua@db.example:5432/capicua",
    "REDIS_URL": "redis://cache.example:6379/0",
    "SECRET_KEY": "a-long-production-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "domino.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://domino.example.org",
}


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DATABASE_URL",
            "REDIS_URL",
            "SECRET_KEY",
            "DEBUG",
            "SECURE_SSL",
            "ALLOWED_HOSTS",
            "CSRF_TRUSTED_ORIGINS",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        }
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def show(expression: str, env: dict[str, str]) -> str:
    code = f"from django.conf import settings as s; print({expression})"
    result = manage("shell", "--no-imports", "-c", code, env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_production_passes_the_deploy_check():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_needs_a_secret_key():
    result = manage("check", env={k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_uses_postgres_and_redis_with_debug_off():
    values = show(
        "s.DEBUG, s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'], "
        "s.CELERY_BROKER_URL, s.SESSION_COOKIE_SECURE, s.SECURE_HSTS_SECONDS, "
        "s.DATABASES['default']['OPTIONS']['pool']['max_size']",
        PRODUCTION,
    )
    assert values == (
        "False django.db.backends.postgresql core.layers.PipelinedPubSubChannelLayer "
        "redis://cache.example:6379/0 True 31536000 10"
    )


def test_embedded_mode_needs_no_server(tmp_path):
    values = show(
        "s.DEBUG, s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'], "
        "s.CELERY_BROKER_URL, s.EMAIL_BACKEND",
        {"CAPICUA_VAR_DIR": str(tmp_path)},
    )
    assert values == (
        "False django.db.backends.sqlite3 channels.layers.InMemoryChannelLayer filesystem:// "
        "django.core.mail.backends.console.EmailBackend"
    )
    assert (tmp_path / "celery" / "queue").is_dir()


def test_production_prepares_statements_unless_told_not_to():
    keys = "('server_side_binding', 'prepare_threshold')"
    options = f"[s.DATABASES['default']['OPTIONS'].get(k) for k in {keys}]"
    assert show(options, PRODUCTION) == "[True, 5]"
    assert show(options, PRODUCTION | {"DATABASE_PREPARE_THRESHOLD": "0"}) == "[None, None]"


def test_the_embedded_mode_keeps_a_secret_key_of_its_own(tmp_path):
    """No DEBUG and no SECRET_KEY: a key made at its first use, the same after a restart,
    another in another installation; static files served from where they are."""
    key = "s.SECRET_KEY, s.WHITENOISE_USE_FINDERS, s.SECURE_SSL"
    first = show(key, {"CAPICUA_VAR_DIR": str(tmp_path / "a")})
    assert first == show(key, {"CAPICUA_VAR_DIR": str(tmp_path / "a")})
    made, finders, secure = first.split()
    assert len(made) > 50 and (finders, secure) == ("True", "False")
    assert (tmp_path / "a" / "secret_key").read_text() == made
    assert show(key, {"CAPICUA_VAR_DIR": str(tmp_path / "b")}).split()[0] != made


def test_an_unknown_yes_no_value_is_an_error_naming_the_variable(tmp_path):
    result = manage("check", env={"CAPICUA_VAR_DIR": str(tmp_path), "DEBUG": "ture"})
    assert result.returncode != 0
    assert "DEBUG='ture' is not a yes/no value" in result.stderr
    result = manage("check", env={**PRODUCTION, "DATABASE_POOL_MAX": "ten"})
    assert result.returncode != 0
    assert "DATABASE_POOL_MAX='ten' is not a number" in result.stderr
    result = manage("check", env={**PRODUCTION, "ACCOUNT_RATE_SIGN_IN_ACCOUNT": "ten"})
    assert result.returncode != 0
    assert "ACCOUNT_RATE_SIGN_IN_ACCOUNT: 'ten' is not a rate" in result.stderr
    off = {"CAPICUA_VAR_DIR": str(tmp_path), "DEBUG": "Off", "SECRET_KEY": PRODUCTION["SECRET_KEY"]}
    assert show("s.DEBUG", off) == "False"


def test_importing_the_settings_writes_nothing(tmp_path):
    var = tmp_path / "var"
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    imported = subprocess.run(
        [sys.executable, "-c", "import config.settings as s; print(s.CAPICUA_DIRS[0])"],
        cwd=settings.BASE_DIR,
        env=env | {"CAPICUA_VAR_DIR": str(var)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.strip() == str(var)
    assert not var.exists()
    # Django's start-up makes the embedded mode's folders: the SQLite file's and the broker's.
    assert manage("check", env={"CAPICUA_VAR_DIR": str(var)}).returncode == 0
    assert (var / "celery" / "queue").is_dir()
    assert (var / "celery" / "processed").is_dir()


def test_the_readme_lists_every_environment_variable_the_settings_read():
    source = (settings.BASE_DIR / "config" / "settings.py").read_text()
    read = set(
        re.findall(r'(?:env_bool|env_int|env_float|env_list|os\.environ\.get)\(\s*"(\w+)"', source)
    )
    assert {"DEBUG", "DATABASE_URL", "WEBHOOK_RETRY_BASE"} <= read  # the pattern still finds them
    readme = (settings.BASE_DIR / "README.md").read_text()
    table = readme[readme.index("### Configuration reference") : readme.index("## Architecture")]
    missing = sorted(name for name in read if f"`{name}`" not in table)
    assert not missing, f"settings read {missing} from the environment; add them to the README"


def test_forwarded_proto_is_believed_only_behind_trusted_proxies():
    expression = "s.SECURE_PROXY_SSL_HEADER"
    assert show(expression, env=PRODUCTION) == "None"
    for proxies in ("1", "10.0.0.0/8,192.0.2.7"):
        believed = show(expression, env=PRODUCTION | {"TRUSTED_PROXIES": proxies})
        assert believed == "('HTTP_X_FORWARDED_PROTO', 'https')"
