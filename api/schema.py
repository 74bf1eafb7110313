"""The OpenAPI schema tells the truth about errors, limits and the hand records.

A drf-spectacular post-processing hook: every operation documents the errors it can answer,
all with the one error shape of api.errors; path and query numbers carry their bounds; and
the `domino-hand/1` and `domino-ruling/1` JSON Schemas (games/schemas/, also served at
/api/v1/schemas/) are components that the operations reference.
"""

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

from django.http import Http404, HttpRequest, JsonResponse
from drf_spectacular import openapi

MAX_ID = 2**63 - 1
ID_PATTERN = "^[0-9]{1,18}$"
SCHEMAS_DIR = Path(__file__).resolve().parent.parent / "games" / "schemas"
HAND_RECORDS = {"DominoHand": "domino-hand-1", "DominoRuling": "domino-ruling-1"}
HAND = {"$ref": "#/components/schemas/DominoHand"}
RULING = {"$ref": "#/components/schemas/DominoRuling"}
# A body for the adjudicator: any JSON object gets a ruling, and one that is not a record
# is ruled `valid: false` (bad_record); a valid record is what it is for.
ANY_RECORD = {
    "description": "A `domino-hand/1` record. Any JSON object gets a ruling: one that is "
    "not a valid record is ruled `valid: false` with the code `bad_record`.",
    "anyOf": [HAND, {"type": "object"}],
}

ERROR = {
    "type": "object",
    "description": "Every error of the API (see the README's API section for the codes).",
    "required": ["error"],
    "additionalProperties": False,
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "additionalProperties": False,
            "properties": {
                "code": {
                    "type": "string",
                    "description": "Stable, for programs: `invalid`, `not_found`, "
                    "`rate_limited`, a competition rule's code …",
                },
                "message": {"type": "string", "description": "For people, translated."},
                "fields": {
                    "type": "object",
                    "description": "With `invalid`: what is wrong with each field.",
                    "additionalProperties": True,
                },
                "problems": {
                    "type": "array",
                    "description": "With `bad_csv` (an entry import refused): every problem "
                    "of the file, with its line (null for the file as a whole).",
                    "items": {
                        "type": "object",
                        "required": ["line", "code", "message"],
                        "additionalProperties": False,
                        "properties": {
                            "line": {"type": ["integer", "null"], "minimum": 1},
                            "code": {"type": "string"},
                            "message": {"type": "string"},
                        },
                    },
                },
            },
        }
    },
}

RESPONSES = {
    "400": ("BadRequest", "The request is not valid (`invalid` with `fields`, or malformed)."),
    "401": ("Unauthenticated", "The API key is not valid or was revoked."),
    "403": ("Forbidden", "The caller may not do this, or the key is read-only or elsewhere."),
    "404": ("NotFound", "No such object (drafts answer as missing ones), or no such page."),
    "406": ("NotAcceptable", "The Accept header asks for a type the API does not give."),
    "413": ("TooLarge", "The body is larger than the server accepts."),
    "415": ("UnsupportedMediaType", "The body is not JSON."),
    "422": ("Refused", "A competition rule refuses the change; `code` names the rule."),
    "429": ("RateLimited", "Too many requests; try again after `Retry-After` seconds."),
}


@cache
def json_schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMAS_DIR / f"{name}.json").read_text())


def served_schema(request: HttpRequest, name: str) -> JsonResponse:
    """/api/v1/schemas/<name>.json: a hand-record JSON Schema."""
    if name not in HAND_RECORDS.values():
        raise Http404
    response = JsonResponse(json_schema(name), json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/schema+json"
    response["Cache-Control"] = "public, max-age=3600"
    return response


def _as_component(component: str, schema: dict) -> dict[str, dict]:
    """The JSON Schema as components: its $defs become components of their own."""
    text = json.dumps({k: v for k, v in schema.items() if k not in ("$schema", "$id", "$defs")})
    defs = schema.get("$defs", {})
    for name in defs:
        text = text.replace(f'"#/$defs/{name}"', f'"#/components/schemas/{component}_{name}"')
    parts = {component: json.loads(text)}
    for name, definition in defs.items():
        parts[f"{component}_{name}"] = json.loads(
            json.dumps(definition).replace('"#/$defs/', f'"#/components/schemas/{component}_')
        )
    return parts


def _constrain(parameter: dict) -> None:
    """Ids and numbers in paths and queries are whole numbers from 1 up."""
    schema = parameter.setdefault("schema", {})
    if parameter["in"] == "path" and (
        schema.get("pattern") == ID_PATTERN or schema.get("type") == "integer"
    ):
        parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": 10**18 - 1}
    elif parameter["in"] == "query" and schema.get("type") in ("integer", "number"):
        schema["type"] = "integer"
        schema.setdefault("minimum", 1)
        schema.setdefault("maximum", MAX_ID)


def _errors(method: str, operation: dict) -> list[str]:
    """The error statuses an operation can answer (a read for organisers only, marked
    `x-organisers-only` by its view, can also answer 403)."""
    parameters = operation.get("parameters", [])
    keyed = any(requirement for requirement in operation.get("security", [{}]))
    codes = ["400", "406", "429"]
    if operation.pop("x-organisers-only", False):
        codes.append("403")
    if keyed:
        codes.append("401")
    if any(p["in"] == "path" or p["name"] == "page" for p in parameters):
        codes.append("404")
    if method not in ("get", "head"):
        codes += ["413", "415"]
        if keyed:
            codes += ["403", "422"]
    return sorted(codes)


class AutoSchema(openapi.AutoSchema):
    """Reads that anyone may make (a permission with `public_reads`) say so: a key or a
    session is optional for them."""

    def get_auth(self) -> list[dict]:
        auths = super().get_auth()
        public = self.method in ("GET", "HEAD") and any(
            getattr(permission, "public_reads", False) for permission in self.view.get_permissions()
        )
        if public and {} not in auths:
            auths.append({})
        return auths


def postprocess(result: dict, generator, request, public) -> dict:
    components = result.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    schemas["Error"] = ERROR
    for component, name in HAND_RECORDS.items():
        schemas.update(_as_component(component, json_schema(name)))
    content = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    components["responses"] = {
        name: {"description": description, "content": copy.deepcopy(content)}
        for name, description in RESPONSES.values()
    }
    for item in result.get("paths", {}).values():
        for method, operation in item.items():
            for parameter in operation.get("parameters", []):
                _constrain(parameter)
            responses = operation.setdefault("responses", {})
            for code in _errors(method, operation):
                responses.setdefault(code, {"$ref": f"#/components/responses/{RESPONSES[code][0]}"})
    return result
