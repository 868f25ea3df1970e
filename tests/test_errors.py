"""Every library error pickles, copies, and crosses a process boundary intact."""

from __future__ import annotations

import copy
import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from sevenbridge import Draw, IllegalActionError, InvalidCardError, InvalidStateError
from sevenbridge.errors import ExternalBotError, Message, RulesConfigError, SevenBridgeError
from sevenbridge.melds import InvalidMeldError
from sevenbridge.notation import NotationError
from sevenbridge.records import RecordError

ERRORS: list[SevenBridgeError] = [
    IllegalActionError(Draw(1), "it is player 0's turn"),
    InvalidCardError("11H", "rank '11' is not one of A 2-10 T J Q K"),
    NotationError("P0 dance", "unknown verb 'dance'", 3, 4),
    RecordError("[Seed x]", "bad tag", 2, 1),
    InvalidStateError("hands: card 7H twice"),
    RulesConfigError("jokers must be 0, 1 or 2"),
    InvalidMeldError("6H 8H: not a run"),
    ExternalBotError(
        "nonsense",
        Message(
            "external_bot.external_bot",
            "external bot {name} {what}",
            name="'deep'",
            what=Message(
                "external_bot.nested_too_deep",
                "wrote JSON nested deeper than {limit} levels: {short}",
                limit=64,
                short="[[[[...",
            ),
        ),
    ),
]


def _same(a: SevenBridgeError, b: SevenBridgeError) -> None:
    assert type(a) is type(b)
    assert str(a) == str(b)
    assert a.args == b.args
    assert a.code == b.code
    assert vars(a) == vars(b)


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: type(e).__name__)
def test_pickles_and_copies(error: SevenBridgeError) -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        _same(error, pickle.loads(pickle.dumps(error, protocol)))
    _same(error, copy.copy(error))
    _same(error, copy.deepcopy(error))


def _raise(index: int) -> None:
    raise ERRORS[index]


def test_errors_arrive_from_a_worker_process() -> None:
    with ProcessPoolExecutor(max_workers=1) as pool:
        for index, error in enumerate(ERRORS):
            with pytest.raises(type(error)) as info:
                pool.submit(_raise, index).result()
            _same(error, info.value)


def test_codes_are_distinct() -> None:
    codes = [e.code for e in ERRORS]
    assert len(set(codes)) == len(codes)
