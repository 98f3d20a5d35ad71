"""Rulesets as frozen dataclasses that parse from, and serialise to, JSON.

Each game declares its ruleset as a dataclass whose fields carry metadata (``help``,
``min``, ``max``, ``choices``); :func:`config_from_dict` validates input against it with
field-level errors, and :func:`config_to_dict` gives the JSON snapshot that a recorded
round keeps forever. The Django side builds its forms from :func:`describe`.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from functools import cache
from types import MappingProxyType
from typing import Any

from ..vocabulary.base import Errors, join_path


def setting(default: Any, help: str, **meta: Any) -> Any:  # noqa: A002 - "help" is the word
    """A ruleset field with a default from the rule card and a line of help for managers."""
    meta["help"] = help
    if isinstance(default, (dict, list)):
        frozen = _freeze(default)
        return dataclasses.field(default_factory=lambda: frozen, metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return Decimal(str(value))
    return value


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _parse_decimal(value: Any, path: str, errors: Errors, meta: Mapping) -> Decimal | None:
    if isinstance(value, bool) or value is None or isinstance(value, float):
        errors.add(path, f"{value!r} is not a number; send numbers as strings or integers")
        return None
    try:
        number = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        errors.add(path, f'"{value}" is not a number')
        return None
    if not number.is_finite():
        errors.add(path, f'"{value}" is not a number')
        return None
    return _check_range(number, path, errors, meta)


def _check_range(number: Any, path: str, errors: Errors, meta: Mapping) -> Any:
    lo, hi = meta.get("min"), meta.get("max")
    if meta.get("positive") and number <= 0:
        errors.add(path, f"must be more than 0, got {number}")
        return None
    if lo is not None and number < lo:
        errors.add(path, f"must be at least {lo}, got {number}")
        return None
    if hi is not None and number > hi:
        errors.add(path, f"must be at most {hi}, got {number}")
        return None
    return number


def _parse_value(tp: Any, value: Any, path: str, errors: Errors, meta: Mapping) -> Any:
    origin = typing.get_origin(tp)
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, Mapping):
            errors.add(path, "must be an object")
            return None
        return _parse_dataclass(tp, value, path, errors)
    if origin in (Mapping, dict, typing.Mapping) or tp in (Mapping, dict):
        key_tp, val_tp = typing.get_args(tp) or (str, Any)
        if not isinstance(value, Mapping):
            errors.add(path, "must be an object")
            return None
        allowed = meta.get("keys")
        out = {}
        for k, v in value.items():
            kpath = join_path(path, str(k))
            if allowed is not None and str(k) not in allowed:
                errors.add(kpath, f"unknown entry; expected one of {', '.join(map(str, allowed))}")
                continue
            if key_tp is int:
                try:
                    k = int(k)
                except (TypeError, ValueError):
                    errors.add(kpath, f'"{k}" is not a whole number')
                    continue
            parsed = _parse_value(val_tp, v, kpath, errors, meta.get("values", meta))
            if parsed is not None:
                out[k] = parsed
        if meta.get("required_keys"):
            for k in meta["required_keys"]:
                if k not in out and str(k) not in value:
                    errors.add(join_path(path, str(k)), "is missing")
        return MappingProxyType(out)
    if tp is bool:
        if not isinstance(value, bool):
            errors.add(path, "must be true or false")
            return None
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, str) and value.strip().lstrip("-").isdigit():
                value = int(value)
            else:
                errors.add(path, f"{value!r} is not a whole number")
                return None
        return _check_range(value, path, errors, meta)
    if tp is Decimal:
        return _parse_decimal(value, path, errors, meta)
    if tp is str:
        if not isinstance(value, str):
            errors.add(path, "must be text")
            return None
        choices = meta.get("choices")
        if choices and value not in choices:
            errors.add(path, f'"{value}" is not one of {", ".join(choices)}')
            return None
        return value
    if origin is typing.Union or str(origin) == "<class 'types.UnionType'>":
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if value is None:
            return None
        return _parse_value(args[0], value, path, errors, meta)
    raise TypeError(f"unsupported ruleset field type {tp!r} at {path}")


def _parse_dataclass(cls: type, data: Mapping, path: str, errors: Errors) -> Any:
    hints = _hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key in data:
        if key not in fields:
            errors.add(join_path(path, key), f"unknown setting; expected one of {', '.join(fields)}")
    kwargs = {}
    before = len(errors.items)
    for name, f in fields.items():
        if name not in data:
            continue  # the rule card's default
        parsed = _parse_value(hints[name], data[name], join_path(path, name), errors, f.metadata)
        if parsed is not None or data[name] is None:
            kwargs[name] = parsed
    if len(errors.items) != before:
        return None
    obj = cls(**kwargs)
    check = getattr(obj, "check", None)
    if check is not None:
        check(errors, path)
    return obj


def config_from_dict(cls: type, data: Mapping | None, path: str = "") -> Any:
    """Parse ``data`` into ``cls``; missing settings take the card's default.

    Raises :class:`InvalidInput` listing every wrong field. A class may define
    ``check(self, errors, path)`` for rules that tie settings together.
    """
    errors = Errors()
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        errors.add(path, "must be an object")
        errors.raise_if_any()
    obj = _parse_dataclass(cls, data, path, errors)
    errors.raise_if_any()
    return obj


def _to_json(value: Any) -> Any:
    if dataclasses.is_dataclass(value):
        return config_to_dict(value)
    if isinstance(value, Mapping):
        return {str(k): _to_json(v) for k, v in value.items()}
    if isinstance(value, Decimal):
        return str(value)
    return value


def config_to_dict(obj: Any) -> dict:
    """The full JSON snapshot of a ruleset, every setting spelled out."""
    return {f.name: _to_json(getattr(obj, f.name)) for f in dataclasses.fields(obj)}


def describe(cls: type) -> list[dict]:
    """Field descriptions (name, type, default, help, choices, bounds) for building forms."""
    out = []
    hints = _hints(cls)
    defaults = cls()
    for f in dataclasses.fields(cls):
        tp = hints[f.name]
        kind = (
            "bool" if tp is bool else "int" if tp is int else "decimal" if tp is Decimal
            else "choice" if tp is str and f.metadata.get("choices") else "text" if tp is str
            else "object"
        )
        out.append({
            "name": f.name,
            "kind": kind,
            "default": _to_json(getattr(defaults, f.name)),
            "help": f.metadata.get("help", ""),
            "choices": f.metadata.get("choices"),
            "min": f.metadata.get("min"),
            "max": f.metadata.get("max"),
        })
    return out
