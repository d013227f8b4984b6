"""The audit trail has one way in: `tournament.services.audit` writes every `AuditEntry` row;
no other module of the product makes, saves or bulk-creates one."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GATE = ROOT / "tournament" / "services" / "audit.py"
WRITES = re.compile(
    r"(?<!class )AuditEntry\(|AuditEntry\.objects\.(create|bulk_create|get_or_create)"
)


def test_only_the_gate_writes_audit_rows():
    writers = [
        path.relative_to(ROOT).as_posix()
        for folder in ("tournament", "scoring", "config")
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts and path != GATE and WRITES.search(path.read_text())
    ]
    assert writers == []


def test_the_gate_is_found_writing():
    assert WRITES.search(GATE.read_text())
