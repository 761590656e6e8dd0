"""Discord's own request schema for the stand-in: every body the bot sends is checked against it.

The schema is Discord's published OpenAPI 3.1 description of its HTTP API (discord/discord-api-spec,
MIT), read from the snapshot kept in ``discord_api/`` beside this module (licence and provenance
there). It is loaded once per process; one validator per (method,
OpenAPI path) is compiled on first use and cached. A body that does not conform is answered as
Discord does: HTTP 400, JSON code 50035 "Invalid Form Body" with an ``errors`` tree naming the
offending field.

Two deliberate departures from the published document, both towards what Discord actually does:
- Snowflakes may be JSON integers as well as strings (discord.py sends some ids as ints, e.g.
  ``recipient_id``, and Discord accepts them).
- A bot's message ``content`` is limited to 2,000 characters. The document says 4,000 for
  ``POST/PATCH /channels/{channel_id}/messages`` (the limit of a Nitro user); a bot gets
  "Must be 2000 or fewer in length." there, as on the webhook and interaction routes, whose
  schemas already say 2,000.

And the limits Discord enforces that its document cannot state (``beyond_schema``): an embed's
6,000 characters (title, description, field names and values, footer text, author name), counted
over all a message's embeds; at most 5 action rows in a message (without the Components V2 flag),
a select alone in its row, no two components with one custom id, no two options of a select with
one value; a slash command's or option's name, and each of its localizations,
lower case of ``-_'``, letters and digits.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

REPO_ROOT = Path(__file__).resolve().parents[2]
#: Discord's published schema, a snapshot kept in the repository (provenance in its README), so a
#: fresh clone runs the bot tests.
SPEC_PATH = Path(__file__).resolve().parent / "discord_api" / "openapi.json"
SPEC_ENV = "TAPIS_DISCORD_OPENAPI"
DOC_URI = "urn:discord-openapi"
BOT_CONTENT_MAX = 2000
BOT_CONTENT_SCHEMAS = ("MessageCreateRequest", "MessageEditRequestPartial")


class SpecMissing(RuntimeError):
    """Discord's OpenAPI document is not where the stand-in looks for it."""


def spec_path() -> Path:
    """Where the spec is read from: ``$TAPIS_DISCORD_OPENAPI`` or the copy in ``discord_api/``."""
    return Path(os.environ.get(SPEC_ENV) or SPEC_PATH)


@cache
def spec() -> dict[str, Any]:
    """The OpenAPI document, loaded and adjusted once per process; fails loudly if missing."""
    return load(spec_path())


def load(path: Path) -> dict[str, Any]:
    """Read and adjust the OpenAPI document at ``path``; :class:`SpecMissing` if it is not there."""
    if not path.is_file():
        raise SpecMissing(
            f"Discord's OpenAPI schema is missing: {path} (the stand-in validates every request "
            f"against it; restore tests/discord_stub/discord_api/ or set {SPEC_ENV})")
    doc = json.loads(path.read_text(encoding="utf-8"))
    _relax_snowflakes(doc)
    for name in BOT_CONTENT_SCHEMAS:
        doc["components"]["schemas"][name]["properties"]["content"]["maxLength"] = BOT_CONTENT_MAX
    return doc


def _relax_snowflakes(node: Any) -> None:
    """Let every snowflake string schema accept a JSON integer too (its pattern only binds strings)."""
    if isinstance(node, dict):
        if node.get("format") == "snowflake" and node.get("type") == "string":
            node["type"] = ["string", "integer"]
            node["minimum"] = 0
        for value in node.values():
            _relax_snowflakes(value)
    elif isinstance(node, list):
        for value in node:
            _relax_snowflakes(value)


@dataclass(frozen=True)
class _Path:
    template: str
    regex: re.Pattern[str]
    literals: int


@cache
def _paths() -> tuple[_Path, ...]:
    """The OpenAPI paths as regexes, most literal segments first (``@original`` before ``{id}``)."""
    out = []
    for template in spec()["paths"]:
        parts = template.strip("/").split("/")
        pattern = "/".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
        literals = sum(not p.startswith("{") for p in parts)
        out.append(_Path(template, re.compile(f"^/{pattern}$"), literals))
    return tuple(sorted(out, key=lambda p: (-p.literals, p.template)))


@cache
def openapi_path(path: str) -> str | None:
    """The OpenAPI path template a concrete request path (without ``/api/v10``) belongs to."""
    for candidate in _paths():
        if candidate.regex.match(path):
            return candidate.template
    return None


@cache
def _registry() -> Registry:
    return Registry().with_resource(DOC_URI, Resource(contents=spec(), specification=DRAFT202012))


@cache
def validator(method: str, template: str) -> Draft202012Validator | None:
    """The compiled validator of the JSON request body of ``method template``, or None if it has none."""
    operation = spec()["paths"].get(template, {}).get(method.lower())
    if not isinstance(operation, dict) or "requestBody" not in operation:
        return None
    content = operation["requestBody"].get("content", {})
    kind = "application/json" if "application/json" in content else next(iter(content), None)
    if kind is None or "schema" not in content[kind]:
        return None
    pointer = "/".join(["#/paths", _escape(template), method.lower(), "requestBody/content", _escape(kind),
                        "schema"])
    schema = {"$ref": DOC_URI + pointer}
    return Draft202012Validator(schema, registry=_registry())


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def check(method: str, path: str, body: Any) -> dict[str, Any] | None:
    """Discord's 400 body (code 50035) if ``body`` does not fit ``method path``'s schema, else None.

    ``path`` is the request path without ``/api/v10``. Routes the document does not describe and
    requests without a body are not checked.
    """
    if body is None:
        return None
    template = openapi_path(path)
    if template is None:
        return None
    v = validator(method, template)
    if v is None:
        return None
    found = list(v.iter_errors(body))
    if not found:
        return beyond_schema(method, template, body)
    errors: dict[str, Any] = {}
    for leaf in (leaf for err in found for leaf in _leaves(err)):
        _insert(errors, list(leaf.absolute_path), _describe(leaf))
    return {"code": 50035, "errors": errors, "message": "Invalid Form Body"}


#: Discord's limits the OpenAPI document cannot express.
EMBED_TOTAL_MAX = 6000
ROWS_MAX = 5
COMPONENTS_V2 = 1 << 15
MESSAGE_TEMPLATES = ("/channels/{channel_id}/messages", "/channels/{channel_id}/messages/{message_id}",
                     "/webhooks/{webhook_id}/{webhook_token}",
                     "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
                     "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
COMMAND_TEMPLATES = ("/applications/{application_id}/commands",
                     "/applications/{application_id}/guilds/{guild_id}/commands")


def beyond_schema(method: str, template: str, body: Any) -> dict[str, Any] | None:
    """Discord's 400 body for a request the schema passes but Discord refuses, else None."""
    errors: dict[str, Any] = {}
    if template in MESSAGE_TEMPLATES and isinstance(body, dict):
        _message_limits(body, [], errors)
    elif template.endswith("/callback") and isinstance(body, dict) and body.get("type") in (4, 7):
        if isinstance(body.get("data"), dict):
            _message_limits(body["data"], ["data"], errors)
    elif template in COMMAND_TEMPLATES or template.startswith(COMMAND_TEMPLATES[0] + "/"):
        commands = body if isinstance(body, list) else [body]
        for i, command in enumerate(commands):
            if isinstance(command, dict) and command.get("type", 1) == 1:
                _command_names(command, [i] if isinstance(body, list) else [], errors)
    if not errors:
        return None
    return {"code": 50035, "errors": errors, "message": "Invalid Form Body"}


def embed_length(embed: dict[str, Any]) -> int:
    """The characters Discord counts towards an embed's 6,000."""
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    size += sum(len(f.get("name") or "") + len(f.get("value") or "") for f in embed.get("fields") or [])
    size += len((embed.get("footer") or {}).get("text") or "")
    size += len((embed.get("author") or {}).get("name") or "")
    return size


def _message_limits(message: dict[str, Any], where: list[Any], errors: dict[str, Any]) -> None:
    embeds = [e for e in message.get("embeds") or [] if isinstance(e, dict)]
    if sum(embed_length(e) for e in embeds) > EMBED_TOTAL_MAX:
        too_big = f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}"
        _insert(errors, [*where, "embeds"], {"code": "BASE_TYPE_MAX_LENGTH", "message": too_big})
    rows = message.get("components") or []
    if int(message.get("flags") or 0) & COMPONENTS_V2:
        return
    if len(rows) > ROWS_MAX:
        _insert(errors, [*where, "components"], {
            "code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {ROWS_MAX} or fewer in length."})
    seen: set[str] = set()
    for r, row in enumerate(rows):
        items = (row.get("components") or []) if isinstance(row, dict) else []
        if len(items) > 1 and any(isinstance(c, dict) and c.get("type") in (3, 5, 6, 7, 8) for c in items):
            _insert(errors, [*where, "components", r, "components"], {
                "code": "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "message": "The specified component exceeds the maximum width"})
        for c, item in enumerate(i for i in items if isinstance(i, dict)):
            cid = item.get("custom_id")
            if isinstance(cid, str):
                if cid in seen:
                    _insert(errors, [*where, "components", r, "components", c, "custom_id"], {
                        "code": "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "message": "Component custom id cannot be duplicated"})
                seen.add(cid)
            values = [o.get("value") for o in item.get("options") or [] if isinstance(o, dict)]
            if len(values) != len(set(values)):
                _insert(errors, [*where, "components", r, "components", c, "options"], {
                    "code": "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "message": "The specified option value is already used"})


def _valid_name(name: Any) -> bool:
    """Discord's ``^[-_'\\p{L}\\p{N}]{1,32}$``, lower case where a letter has a lower case."""
    return (isinstance(name, str) and 1 <= len(name) <= 32
            and all(c in "-_'" or c.isalnum() for c in name) and name == name.lower())


def _command_names(node: dict[str, Any], where: list[Any], errors: dict[str, Any]) -> None:
    bad = {"code": "APPLICATION_COMMAND_INVALID_NAME", "message": "Command name is invalid"}
    if not _valid_name(node.get("name")):
        _insert(errors, [*where, "name"], bad)
    for locale, name in (node.get("name_localizations") or {}).items():
        if not _valid_name(name):
            _insert(errors, [*where, "name_localizations", locale], bad)
    for i, option in enumerate(node.get("options") or []):
        if isinstance(option, dict):
            _command_names(option, [*where, "options", i], errors)


def _leaves(err: ValidationError) -> list[ValidationError]:
    """The errors that explain ``err``: inside a union, those of the branch the body meant.

    Discord's unions (components, callbacks) are told apart by their ``type`` field and nullable
    fields are ``oneOf [null, X]``, so the branch meant is one whose JSON type and ``type`` field
    matched; among those, the one with the fewest errors.
    """
    if not err.context:
        return [err]
    branches: dict[Any, list[ValidationError]] = {}
    for sub in err.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)

    def mismatch(subs: list[ValidationError]) -> tuple[int, int]:
        wrong = any((not s.relative_path and s.validator == "type")
                    or (list(s.relative_path) == ["type"] and s.validator in ("enum", "const")) for s in subs)
        return (wrong, len(subs))

    chosen = min(branches.values(), key=mismatch)
    if mismatch(chosen)[0]:
        return [best_match([err])]
    return [leaf for sub in chosen for leaf in _leaves(sub)]


def _insert(tree: dict[str, Any], where: list[Any], item: dict[str, str]) -> None:
    node = tree
    for key in where:
        node = node.setdefault(str(key), {})
    node.setdefault("_errors", []).append(item)


def _describe(err: ValidationError) -> dict[str, str]:
    """Discord's error code and wording for one schema violation (as close as a schema allows)."""
    kind, limit = err.validator, err.validator_value
    if kind in ("maxLength", "maxItems"):
        return {"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {limit} or fewer in length."}
    if kind in ("minLength", "minItems"):
        return {"code": "BASE_TYPE_MIN_LENGTH", "message": f"Must be {limit} or more in length."}
    if kind == "required":
        return {"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}
    if kind == "maximum":
        return {"code": "NUMBER_TYPE_MAX", "message": f"Int value should be less than or equal to {limit}."}
    if kind == "minimum":
        return {"code": "NUMBER_TYPE_MIN",
                "message": f"Int value should be greater than or equal to {limit}."}
    if kind == "type":
        return {"code": "BASE_TYPE_BAD_TYPE", "message": f"Value must be of type {limit}."}
    return {"code": "BASE_TYPE_INVALID", "message": f"Invalid value ({kind}): {err.message[:200]}"}


def warm() -> None:
    """Load the document and its registry now (raises :class:`SpecMissing` if it is not there)."""
    _paths()
    _registry()
