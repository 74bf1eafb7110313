"""The API's JSON parser: bodies bounded in size and nesting, and no NUL characters.

Kept apart from api.errors, which DRF's settings import while its views are being defined.
"""

import json
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, parsers, status

from .asgi import TOO_LARGE

# Nesting of a JSON body: a result is 6 levels deep (games, a game, hands, a record, its
# deal, a hand of tiles); anything much deeper is refused before it reaches a serializer.
MAX_JSON_DEPTH = 32


class TooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = TOO_LARGE
    api_code = "too_large"


class TooDeep(exceptions.ParseError):
    default_detail = gettext_lazy("The JSON body is nested too deeply.")
    api_code = "too_deep"


class NulByte(exceptions.ParseError):
    default_detail = gettext_lazy("Text may not contain NUL characters.")
    api_code = "nul_byte"


def check_json(value: Any, max_depth: int = MAX_JSON_DEPTH) -> None:
    """Refuse JSON nested deeper than `max_depth`, or with a NUL in any text (PostgreSQL
    cannot store one), walking it without recursion."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise NulByte
        elif isinstance(item, dict | list):
            if depth > max_depth:
                raise TooDeep
            if isinstance(item, dict):
                pending.extend((key, depth) for key in item)
                item = item.values()
            pending.extend((child, depth + 1) for child in item)


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, with the body's size bounded (DATA_UPLOAD_MAX_MEMORY_SIZE, as for
    Django's forms), its nesting bounded and NUL characters refused."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(-1 if limit is None else limit + 1) if stream is not None else b""
        if limit is not None and len(raw) > limit:
            raise TooLarge
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = json.loads(raw.decode(encoding), parse_constant=_no_constant)
        except RecursionError as error:
            raise TooDeep from error
        except ValueError as error:
            raise exceptions.ParseError(_("The body is not valid JSON.")) from error
        check_json(data)
        return data


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")
