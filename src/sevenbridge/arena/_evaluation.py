"""Fixed evaluation sets: the same decks for every bot, named and versioned,
so that figures from different runs, machines and versions of a bot meet
the same cards."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import attrs

from .._kit import checks as _checks
from ..errors import InvalidArgumentError, Message, quote
from ..games import CARD_GAME, check_game, game_module
from ._play import deck_deal, seatings
from ._results import TournamentResult
from ._settings import Settings
from ._tournament import run_tournament

#: The seed of every evaluation set of this version.
EVALUATION_SEED = 20261205
#: Decks in an evaluation set.
EVALUATION_DECKS = 2000
#: Decks whose deals the digest covers.
DIGEST_DECKS = 20

#: Each set's digest, by game and preset: the first :data:`DIGEST_DECKS`
#: decks' deals, as the library deals them now. A change to the shuffle, the
#: deal or the state's JSON changes a digest, and the test that recomputes
#: them fails: the set then gets a new version, so that no table mixes
#: figures from two different sets of cards under one name.
_DIGESTS: dict[tuple[str, str], str] = {
    ("seven_bridge", "nintendo"): (
        "8c1b79c155a341a68523e21bf7ad25d70100faaa4359410d8b771af9acf36bb2"
    ),
    ("seven_bridge", "seven_rummy"): (
        "4546c7719629d0e390730b846c3a8d6c8869721d2e1e101868275404abe1dbc2"
    ),
    ("seven_bridge", "standard"): (
        "43357cc28343789c1e3d96d86a8aa30629d288cdac8a497f535bb353c1f6052d"
    ),
    ("mahjong", "full"): ("0f87930234a916b87bb50c17f074e8f2eab12cb9393e2743314989b6ee48d319"),
    ("mahjong", "literal"): ("cbbbe08fb1a19e6f43228e9290a7eaedec3b88c07ebaf83c62345d4ac564c6ba"),
    ("mahjong", "standard"): ("915073426e90588fd9ad060accb0d94db3c74cbb5ef1a45256120c1e850901fe"),
}
#: The version of the sets above.
EVALUATION_VERSION = 1


@attrs.frozen
class EvaluationSet:
    """A fixed set of decks for measuring bots (:func:`evaluation_set`): every
    bot evaluated on it plays the same cards from the same seats, so two
    bots' figures compare deck by deck across runs. A tournament on its
    first ``n`` decks plays the first ``n`` of the full set.

    >>> from sevenbridge.arena import evaluation_set
    >>> chosen = evaluation_set("nintendo")
    >>> chosen.name, chosen.decks, chosen.players
    ('seven_bridge/nintendo/v1', 2000, 3)
    """

    game: str
    """The game, a name of :data:`sevenbridge.GAMES`."""
    preset: str
    """The rules preset (see the game's ``Rules.presets()``)."""
    version: int
    """Its version, a new one whenever its decks would deal differently."""
    seed: int
    """The tournament seed its decks come from."""
    decks: int
    """How many decks it holds."""
    players: int
    """The table size (the game's usual one)."""
    digest: str
    """A SHA-256 digest of its first 20 decks' deals (as JSON)."""

    @property
    def name(self) -> str:
        """``game/preset/vN``."""
        return f"{self.game}/{self.preset}/v{self.version}"

    @property
    def rules(self) -> Any:
        """The preset's rules."""
        return game_module(self.game).Rules.preset(self.preset)

    def settings(self, bots: Sequence[Any], *, decks: int | None = None) -> Settings:
        """Tournament settings that play ``bots`` (one per seat, as
        :func:`~sevenbridge.arena.run_tournament` takes them) on the set's
        first ``decks`` decks (all of them by default)."""
        count = self.decks if decks is None else _checks.integer(decks, "decks", 1, self.decks)
        settings = Settings.of(
            bots, self.rules, game=self.game, players=self.players, deals=1, seed=self.seed
        )
        return attrs.evolve(settings, deals=count * len(seatings(settings.labels)))

    def check(self) -> None:
        """Raise :class:`~sevenbridge.errors.InvalidArgumentError` when this
        version of the library deals the set's decks differently from the
        version that named it (its digest differs)."""
        now = deals_digest(self.game, self.preset, self.seed, self.players)
        if now != self.digest:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.evaluation_set_changed",
                    "evaluation set {name}: this version of the library deals its decks "
                    "differently (digest {now}, the set's {digest}); its figures would not "
                    "compare with earlier ones",
                    name=quote(self.name),
                    now=now[:12],
                    digest=self.digest[:12],
                )
            )

    def tournament(
        self, bots: Sequence[Any], *, decks: int | None = None, **run: Any
    ) -> TournamentResult:
        """:func:`~sevenbridge.arena.run_tournament` of ``bots`` on the set's
        first ``decks`` decks, after :meth:`check`; ``run`` passes how it is
        played (``workers``, ``db``, ``progress``, ...)."""
        self.check()
        return run_tournament(settings=self.settings(bots, decks=decks), **run)


def deals_digest(game: str, preset: str, seed: int, players: int) -> str:
    """The digest of the first ``DIGEST_DECKS`` decks' deals of a
    tournament of ``game`` under ``preset`` with ``seed``."""
    module = game_module(game)
    settings = Settings.of(
        ["random"] * players, module.Rules.preset(preset), game=game, players=players,
        deals=1, seed=seed,
    )  # fmt: skip
    digest = hashlib.sha256()
    for deck in range(DIGEST_DECKS):
        digest.update(deck_deal(settings, deck).to_json().encode())
    return digest.hexdigest()


def evaluation_set(preset: str = "standard", *, game: str = CARD_GAME) -> EvaluationSet:
    """The evaluation set of ``game`` under ``preset``: :data:`EVALUATION_DECKS`
    decks from :data:`EVALUATION_SEED`, at the game's usual table size.

    Raises:
        InvalidArgumentError: for a game or a preset without a set.
    """
    game = check_game(game)
    digest = _DIGESTS.get((game, preset)) if isinstance(preset, str) else None
    if digest is None:
        presets = sorted(p for g, p in _DIGESTS if g == game)
        raise InvalidArgumentError(
            Message(
                "invalid_argument.evaluation_set_preset",
                "no evaluation set for preset {preset}; the presets are {presets}",
                preset=quote(preset),
                presets=", ".join(presets),
            )
        )
    players = game_module(game).GAME.players
    return EvaluationSet(
        game, preset, EVALUATION_VERSION, EVALUATION_SEED, EVALUATION_DECKS, players, digest
    )
