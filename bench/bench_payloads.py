"""Payloads (issue 31): the home-made records of ``rules.protocol`` against msgspec Structs. An evaluation only.

    env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX=/tmp/courtside-pyc \\
        /tmp/msgvenv/bin/python -m bench.bench_payloads [--repeat N]

Run from the repository with a separate virtualenv that has msgspec (the project does not depend on it)::

    python3 -m venv /tmp/msgvenv && /tmp/msgvenv/bin/pip install -e . 'msgspec==0.22.*'

The payloads are real: an indoor-hockey match played through the engine, its events as the table journals
them (``event_to_dict``), its result (``result_payload``), its live state with two penalties on the board
(``live_payload``), wrapped by the project's own builders (``event_message``, ``result_message``,
``build(type="live")``, ``ack_message``, ``presence_message``) and encoded by ``rules.protocol.encode``.

- **decode**: ``rules.protocol.parse(raw, topic=...)``, and ``read_result`` / ``read_live`` after it where a
  consumer does that (server/ingest.py, display/follow.py), against one ``msgspec.json.Decoder`` of a tagged
  union of Structs declared with the same checks (:func:`declare`), the same topic check after it.
- **encode**: ``rules.protocol.encode(message)`` against ``msgspec.json.Encoder().encode(struct)``.
- **start-up**: in fresh interpreters, as bench/bench_startup.py measures (``-X importtime``, best / median):
  ``import msgspec``, alone and after ``rules.protocol``; 42 classes of six fields defined as Structs and as
  Records; the payload Structs of :func:`declare` and their Decoder; ``import rules.match`` and
  ``rules.protocol`` for reference.
- **checks**: a few wrong messages, and which of the two ways refuses each (what msgspec cannot express).

Times per message are the best (and the median) of ``--repeat`` timed loops of ``time.perf_counter``.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Annotated, Any, Literal

from bench.bench_startup import define_ms, import_us
from rules import protocol as p
from rules.errors import ProtocolError
from rules.live import read_live
from rules.match.events import EVENT_TYPES, MAX_AT, MAX_NAME, MAX_PLAYER, MAX_REASON, MAX_SCORE, MAX_SEQ
from rules.result import read_result

TOURNAMENT, COURT, MATCH = "cup", "hall-1", "7"
NO_MSGSPEC = ("msgspec is not installed in this interpreter: run this bench with /tmp/msgvenv/bin/python "
              "(python3 -m venv /tmp/msgvenv && /tmp/msgvenv/bin/pip install -e . 'msgspec==0.22.*')")


def load_msgspec() -> Any:
    try:
        import msgspec  # type: ignore[import-not-found,unused-ignore]  # absent from the project's .venv
    except ImportError:
        raise SystemExit(NO_MSGSPEC) from None
    return msgspec


# -- the payloads as msgspec Structs ----------------------------------------------------------------
# BEGIN STRUCTS (docs/benchmarks.md counts these lines)


def declare(msgspec: Any) -> SimpleNamespace:
    """The wire's messages as msgspec Structs, with the checks of rules.protocol, rules.result, rules.live and
    the events' field checks (rules.match.events) that msgspec's constraints express; the two cross-field
    checks (an event's seq and a live board's match against the envelope's) in ``__post_init__``.

    Declared with ``msgspec.defstruct`` (a field: its type, or its type and default) rather than ``class``
    statements, so that mypy checks this module where msgspec is not installed; product code would write
    ``class Result(msgspec.Struct, frozen=True, forbid_unknown_fields=True): home_goals: Count ...``, a line a field
    as here."""
    meta, required = msgspec.Meta, msgspec.NODEFAULT

    def struct(name: str, fields: dict[str, Any], **config: Any) -> Any:
        spec = [(key, *value) if isinstance(value, tuple) else (key, value) for key, value in fields.items()]
        return msgspec.defstruct(name, spec, frozen=True, **config)

    def whole(low: int, high: int) -> Any:
        return Annotated[int, meta(ge=low, le=high)]

    # str.isprintable() and "not blank" approximated by a pattern: no C0/C1 control character, one non-space.
    printable = r"^(?:[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*)?$"

    def text(low: int, high: int) -> Any:
        return Annotated[str, meta(min_length=low, max_length=high, pattern=printable)]

    name = Annotated[str, meta(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")]
    count, seq = whole(0, 2**53), whole(1, 2**53)
    side = Literal["home", "away"]
    filled = Annotated[str, meta(min_length=1)]

    # The events: rules.match.events._FIELDS (a field's type and its default), one Struct per event type with
    # the fields of the engine's class, tagged by "type".
    fields: dict[str, tuple[Any, Any]] = {
        "target": (whole(1, MAX_SEQ), required), "length": (whole(0, MAX_AT) | None, None),
        "remaining": (whole(0, MAX_AT), required), "clock": (whole(0, MAX_AT), required),
        "home": (whole(0, MAX_SCORE), required), "away": (whole(0, MAX_SCORE), required),
        "team": (side, required), "player": (text(1, MAX_PLAYER) | None, None),
        "kind": (text(1, MAX_NAME), required), "name": (text(1, MAX_NAME), required),
        "reason": (text(0, MAX_REASON), ""), "scored": (bool, required), "short": (bool, False),
    }
    event = struct("Event", {"v": Literal[1, 2], "seq": whole(1, MAX_SEQ), "at": whole(0, MAX_AT)}, kw_only=True,
                   forbid_unknown_fields=True, tag_field="type", omit_defaults=True)
    events = tuple(struct(cls.__name__, {f: fields[f] for f in cls.__record_fields__ if f not in ("at", "seq")},
                          bases=(event,), tag=cls.type, kw_only=True) for cls in EVENT_TYPES.values())

    # The payloads (rules.result.read_result, rules.live.read_live, rules.protocol._check_*).
    result = struct("Result", {
        "home_goals": count, "away_goals": count,
        "outcome": Literal["regular", "overtime", "shootout", "walkover", "forfeit", "abandoned"],
        "winner": (side | None, None), "home_shootout": (count | None, None), "away_shootout": (count | None, None),
    }, forbid_unknown_fields=True)
    penalty = struct("LivePenalty", {
        "team": side, "player": str | None, "kind": filled, "label": filled, "short": filled,
        "remaining_ms": count | None, "waiting": bool,
    }, forbid_unknown_fields=True)
    board = struct("LiveBoard", {
        "match": str | None, "phase": Literal["pre_match", "play", "interval", "shootout", "finished"],
        "period": count, "period_kind": Literal["regular", "extra_time", "shootout"], "period_name": str,
        "period_number": count | None, "period_length_ms": count, "clock_ms": count, "clock_down": bool,
        "running": bool, "home_goals": count, "away_goals": count, "home_shootout": count | None,
        "away_shootout": count | None, "penalties": tuple[penalty, ...],  # type: ignore[valid-type]
    }, forbid_unknown_fields=True)
    live = struct("Live", {"board": board, "state": dict[str, Any]}, forbid_unknown_fields=True)  # state: an object
    payloads = (
        result, penalty, board, live,
        struct("Presence", {"state": Literal["online", "offline"], "at": (Any, None)}, forbid_unknown_fields=True,
               omit_defaults=True),
        struct("Ack", {"of": Literal["event", "result"], "through": count}),  # other keys left alone, as today
        struct("Held", {"through": count, "result": bool}, forbid_unknown_fields=True),
        struct("Table", {"pool": str, "rows": list[Any]}),
        struct("Error", {"reason": str}),
    )

    # The envelope: every key present; court, match and seq null only where the type allows it.
    envelope = struct("Envelope", {"v": Literal[1], "id": name}, forbid_unknown_fields=True, tag_field="type")

    def same_seq(m: Any) -> None:
        if m.payload.seq != m.seq:
            raise ValueError(f"payload.seq {m.payload.seq} differs from the envelope's seq {m.seq}")

    def same_match(m: Any) -> None:
        if m.payload.board.match != m.match:
            raise ValueError(f"payload.board.match {m.payload.board.match!r} differs from {m.match!r}")

    def message(tag: str, payload: Any, court: Any, match: Any, seq_: Any, check: Any = None) -> Any:
        return struct(f"{tag.title()}Message", {"court": court, "match": match, "seq": seq_, "payload": payload},
                      bases=(envelope,), tag=tag, namespace={"__post_init__": check} if check else None)

    messages = (
        message("event", _union(events), name, name, seq, same_seq),
        message("result", result, name, name, seq),
        message("live", live, name, name | None, seq | None, same_match),
        message("presence", payloads[4], name, name | None, seq | None),
        message("ack", payloads[5], name, name, seq),
        message("held", payloads[6], name, name, seq | None),
        message("schedule", dict[str, Any], name, name | None, seq | None),  # rules.court_schedule: not ported
        message("table", payloads[7], name | None, name | None, seq | None),
        message("error", payloads[8], name | None, name | None, seq | None),
    )
    return SimpleNamespace(message=_union(messages), structs=(event, *events, *payloads, envelope, *messages))


def _union(types: Sequence[Any]) -> Any:
    union: Any = types[0]
    for t in types[1:]:
        union = union | t
    return union


# END STRUCTS


def parse_structs(decoder: Any, errors: tuple[type[Exception], ...], raw: bytes, topic: str) -> Any:
    """rules.protocol.parse's way with msgspec: the size, the decoded and checked message, its topic."""
    if len(raw) > p.MAX_BYTES:
        raise ProtocolError("size", f"{len(raw)} bytes is more than the {p.MAX_BYTES} allowed")
    try:
        message = decoder.decode(raw)
    except errors as err:
        raise ProtocolError("message", str(err)) from None
    where = p.parse_topic(topic)
    kind = type(message).__struct_config__.tag
    if where.kind != p.KIND_OF_TYPE[kind]:
        raise ProtocolError("type", f"a {kind!r} message does not belong on {topic!r}")
    if where.court is not None and message.court != where.court:
        raise ProtocolError("court", f"{message.court!r} sent on court {where.court!r}'s topic")
    return message


# -- real messages ----------------------------------------------------------------------------------


def real_messages() -> dict[str, tuple[str, p.Message]]:
    """(topic, message) of each kind measured, made as the table and the service make them."""
    from rules.live import live_payload
    from rules.match import ClockStarted, ClockStopped, Goal, Match, PenaltyAwarded, PeriodAdvanced, event_to_dict
    from rules.result import result_payload
    from rules.ruleset import load_ruleset

    rules = load_ruleset("indoor-hockey")
    match = Match(rules, stage="round_robin", round="pool")
    match.apply(ClockStarted(at=0))
    match.apply(Goal(at=95_000, team="home", player="7"))
    match.apply(ClockStopped(at=300_000))
    match.apply(PenaltyAwarded(at=310_000, team="away", kind="green", player="14"))
    match.apply(PenaltyAwarded(at=320_000, team="home", kind="yellow", player="5"))
    match.apply(ClockStarted(at=330_000))
    live = live_payload(match.state_at(345_000), rules, MATCH)  # clock running, two penalties on the board
    goal = event_to_dict(match.events[1])
    at = 400_000
    while match.result() is None:  # played to the end as tests/service_support.played does
        at += 1000
        state = match.state_at(at)
        match.apply(ClockStarted(at=at) if state.phase != "play" or (
            not state.running and state.clock_ms in (0, None)) else PeriodAdvanced(at=at))
    outcome = match.result()
    assert outcome is not None
    last = match.events[-1].seq
    topic = {kind: p.court_topic(TOURNAMENT, COURT, kind) for kind in ("events", "result", "live", "ack", "presence")}
    return {
        "event": (topic["events"], p.event_message(id=f"{COURT}.{MATCH}.event.{goal['seq']}", court=COURT,
                                                   match=MATCH, event=goal)),
        "result": (topic["result"], p.result_message(id=f"{COURT}.{MATCH}.result.{last}", court=COURT, match=MATCH,
                                                     seq=last, result=result_payload(outcome))),
        "live": (topic["live"], p.build(id=uuid.uuid4().hex, type="live", court=COURT, match=MATCH, payload=live)),
        "ack": (topic["ack"], p.ack_message(id=uuid.uuid4().hex, court=COURT, match=MATCH, seq=last, of="result",
                                            through=last)),
        "presence": (topic["presence"], p.presence_message(id=uuid.uuid4().hex, court=COURT, online=True)),
    }


def current_read(kind: str) -> Callable[[bytes, str], object]:
    """What a consumer of ``kind`` does today: parse, then read the payload where it reads it again."""
    if kind == "result":  # server/ingest.py
        return lambda raw, topic: read_result(p.parse(raw, topic=topic).payload)
    if kind == "live":  # display/follow.py
        return lambda raw, topic: read_live(p.parse(raw, topic=topic).payload)
    return lambda raw, topic: p.parse(raw, topic=topic)


# -- timing ---------------------------------------------------------------------------------------


def per_call_us(call: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(best, median) microseconds per call over ``repeat`` loops of about 50 ms each."""
    began = time.perf_counter()
    call()
    once = max(time.perf_counter() - began, 1e-7)
    n = max(50, int(0.05 / once))
    runs = []
    for _ in range(repeat):
        began = time.perf_counter()
        for _ in range(n):
            call()
        runs.append((time.perf_counter() - began) / n * 1e6)
    return min(runs), statistics.median(runs)


def fresh_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.setdefault("PYTHONPYCACHEPREFIX", "/tmp/courtside-pyc")
    return env


def import_after_us(first: str, module: str, env: dict[str, str]) -> int:
    """Cumulative microseconds of ``import module`` once ``first`` is imported (what it adds)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {first}; import {module}"],
                          capture_output=True, text=True, check=True, env=env)
    lines = [line for line in done.stderr.splitlines() if line.rstrip().endswith(f"| {module}")]
    return int(lines[-1].split("|")[1])


STRUCTS = """import sys, time
t0 = time.perf_counter()
import msgspec
t1 = time.perf_counter()
meta = type(msgspec.Struct)
for i in range(42):
    body = {"__annotations__": dict.fromkeys("abcdef", "int"), **dict.fromkeys("abcdef", 0), "__module__": "__main__"}
    meta(f"C{i}", (msgspec.Struct,), body, frozen=True, kw_only=True)
print((t1 - t0) * 1000, (time.perf_counter() - t1) * 1000)
"""


def structs_ms(env: dict[str, str]) -> tuple[float, float]:
    """(import ms, ms to define 42 frozen, keyword-only Structs of six int fields): bench_startup's 42 Records."""
    done = subprocess.run([sys.executable, "-c", STRUCTS], capture_output=True, text=True, check=True, env=env)
    imported, defined = done.stdout.split()
    return float(imported), float(defined)


def schema_ms(env: dict[str, str]) -> tuple[float, float, int]:
    """In a fresh interpreter with rules.protocol and msgspec imported: (ms to declare :func:`declare`'s Structs,
    ms to build their Decoder, how many Structs)."""
    done = subprocess.run([sys.executable, "-m", "bench.bench_payloads", "--schema-only"], capture_output=True,
                          text=True, check=True, env=env)
    declared, decoder, count = done.stdout.split()
    return float(declared), float(decoder), int(count)


def schema_only() -> None:
    msgspec = load_msgspec()
    began = time.perf_counter()
    schema = declare(msgspec)
    declared = time.perf_counter()
    msgspec.json.Decoder(schema.message)
    print((declared - began) * 1000, (time.perf_counter() - declared) * 1000, len(schema.structs))


def best_median(values: Sequence[float]) -> str:
    return f"{min(values):7.2f} / {statistics.median(values):7.2f}"


# -- what each way refuses ----------------------------------------------------------------------------


def wrong_messages(messages: dict[str, tuple[str, p.Message]]) -> list[tuple[str, bytes, str]]:
    """(what is wrong, raw, topic): each way should refuse every one."""
    event_topic, event = messages["event"]
    live_topic, live = messages["live"]
    result_topic, result = messages["result"]

    def raw(message: p.Message, **change: Any) -> bytes:
        data = message.to_dict()
        for key, value in change.items():
            if key.startswith("payload_"):
                data["payload"] = {**data["payload"], key.removeprefix("payload_"): value}
            else:
                data[key] = value
        return json.dumps(data).encode()

    board = {**live.payload["board"], "match": "8"}
    return [
        ("unknown envelope key", raw(event, extra=1), event_topic),
        ("seq true (a bool)", raw(event, seq=True), event_topic),
        ("seq 3.0 (a float)", raw(event, seq=3.0), event_topic),
        ("event's seq differs from the envelope's", raw(event, payload_seq=(event.seq or 0) + 1), event_topic),
        ("player too long", raw(event, payload_player="123456789"), event_topic),
        ("player blank", raw(event, payload_player="   "), event_topic),
        ("player a control character", raw(event, payload_player="\x07"), event_topic),
        ("player U+2028 (not printable)", raw(event, payload_player="1\u2028"), event_topic),
        ("team 'both'", raw(event, payload_team="both"), event_topic),
        ("'seq' given twice", raw(event).replace(b'"seq": ', b'"seq": 99, "seq": ', 1), event_topic),
        ("an event on the result topic", raw(event), result_topic),
        ("result winner 'draw'", raw(result, payload_winner="draw"), result_topic),
        ("result home_goals -1", raw(result, payload_home_goals=-1), result_topic),
        ("live board's match differs", raw(live, payload_board=board), live_topic),
        ("not UTF-8", raw(event).replace(b'"goal"', b'"go\xffl"'), event_topic),
    ]


def refused(call: Callable[[], object]) -> str:
    try:
        call()
    except Exception:
        return "refused"
    return "ACCEPTED"


# -- the table ------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=10, help="timed loops per figure, fresh interpreters per "
                                                               "start-up figure: best and median are printed")
    parser.add_argument("--schema-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.schema_only:
        schema_only()
        return 0
    msgspec = load_msgspec()
    schema = declare(msgspec)
    decoder, encoder = msgspec.json.Decoder(schema.message), msgspec.json.Encoder()
    errors = (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError)
    messages = real_messages()
    print(f"msgspec {msgspec.__version__}, Python {sys.version.split()[0]}; load average {_load()}; "
          f"best / median of {args.repeat}")
    print(f"{len(schema.structs)} Structs declared for the wire (the envelope's 9 types, 23 events, the payloads)")

    print("\nper message, us          bytes   parse (today)        msgspec decode      encode (today)      "
          "msgspec encode")
    for kind, (topic, message) in messages.items():
        raw = p.encode(message)
        read = current_read(kind)
        struct = parse_structs(decoder, errors, raw, topic)
        assert p.parse(encoder.encode(struct), topic=topic) == p.parse(raw, topic=topic), kind  # the same message
        today = per_call_us(lambda: read(raw, topic), args.repeat)  # noqa: B023  (called in this iteration)
        ours = per_call_us(lambda: parse_structs(decoder, errors, raw, topic), args.repeat)  # noqa: B023
        enc_today = per_call_us(lambda: p.encode(message), args.repeat)  # noqa: B023
        enc_ours = per_call_us(lambda: encoder.encode(struct), args.repeat)  # noqa: B023
        label = {"result": "result (+read_result)", "live": "live (+read_live)"}.get(kind, kind)
        print(f"  {label:<22} {len(raw):6d}  " + "   ".join(f"{b:7.2f} / {m:7.2f}"
                                                          for b, m in (today, ours, enc_today, enc_ours)))

    print("\nwrong messages                              today     msgspec")
    for what, raw, topic in wrong_messages(messages):
        today_says = refused(lambda: p.parse(raw, topic=topic))  # noqa: B023
        ours_says = refused(lambda: parse_structs(decoder, errors, raw, topic))  # noqa: B023
        print(f"  {what:<40}  {today_says:<8}  {ours_says}")

    env = fresh_env()
    for warm in (lambda: import_us("msgspec", env), lambda: import_us("rules.protocol", env),
                 lambda: structs_ms(env), lambda: schema_ms(env)):
        warm()  # writes the bytecode cache
    n = args.repeat
    print(f"\nstart-up, fresh interpreters, ms (best / median of {n}); load average {_load()}")
    rows: list[tuple[str, list[float]]] = [
        ("import rules.match (reference)", [import_us("rules.match", env) / 1000 for _ in range(n)]),
        ("import rules.protocol (reference)", [import_us("rules.protocol", env) / 1000 for _ in range(n)]),
        ("import msgspec, alone", [import_us("msgspec", env) / 1000 for _ in range(n)]),
        ("import msgspec after rules.protocol", [import_after_us("rules.protocol", "msgspec", env) / 1000
                                                 for _ in range(n)]),
    ]
    structs = [structs_ms(env) for _ in range(n)]
    records = [define_ms("record", env) for _ in range(n)]
    rows += [("42 classes of 6 ints: msgspec.Struct", [d for _, d in structs]),
             ("42 classes of 6 ints: rules.record.Record", [d for _, d in records]),
             ("  (import msgspec, in that run)", [i for i, _ in structs]),
             ("  (import rules.record, in that run)", [i for i, _ in records])]
    schemas = [schema_ms(env) for _ in range(n)]
    rows += [(f"declare()'s {schemas[0][2]} payload Structs", [d for d, _, _ in schemas]),
             ("  their msgspec.json.Decoder", [c for _, c, _ in schemas])]
    for label, values in rows:
        print(f"  {label:<42} {best_median(values)}")
    print(f"load average {_load()}")
    return 0


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


if __name__ == "__main__":
    raise SystemExit(main())
