"""The rules sheets of the web table: one page for each game and preset.

A sheet tells the game in a few paragraphs of our own, then lists every
setting of the preset, read from the preset's own rules value (so a sheet
cannot say other than what a table with those rules plays), each setting
with the value it has and whether it differs from the standard rules.
Simple Mahjong's sheet ends with the tile legend.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape

import attrs

from .._kit.i18n import N_, name_text, translator
from ..mahjong.text import TILE_LEGEND
from ._base import TableGame

__all__ = ["LABELS", "rules_body", "setting_text"]

#: What each setting of the rules means, by field (both games' fields).
LABELS: dict[str, str] = {
    # Seven Bridge
    "jokers": N_("Jokers in the deck"),
    "ace_high": N_("An ace may also be high (Q-K-A)"),
    "upcard": N_("A card is turned up to start the discard pile"),
    "first_player": N_("Who plays first"),
    "first_dealer": N_("How the first dealer is found"),
    "joker_lay_off": N_("The joker may be laid off"),
    "lay_off_needs_own_meld": N_("Laying off needs a meld of your own on the table"),
    "final_discard": N_("Going out ends with a discard"),
    "claim_min_hand_cards": N_("Hand cards a claim must use, at least"),
    "chi_timing": N_("When a chi is allowed"),
    "pon_timing": N_("When a pon is allowed"),
    "upcard_claimable": N_("The upcard may be claimed"),
    "pon_tie_break": N_("Who wins when two players pon the same card"),
    "claim_window": N_("Who is asked about a claim"),
    "scoring": N_("Scoring"),
    "card_values": N_("What cards left in hand count"),
    "joker_multiplier": N_("A joker left in hand multiplies the count by"),
    "going_out_bonus": N_("Going out in one turn doubles the score"),
    "going_out_bonus_after_claim": N_("That double also counts after a claim"),
    "stock_exhaustion": N_("When the stock runs out"),
    "reshuffle_limit": N_("Times the discards may be shuffled into a new stock"),
    "deals": N_("Deals in a match"),
    "target_score": N_("A match ends when a total reaches"),
    "play_off_ties": N_("A tie at the top is played off"),
    # Simple Mahjong
    "flowers": N_("Flower tiles"),
    "seasons": N_("Season tiles"),
    "kong": N_("Kongs (four alike) are played"),
    "self_draw_win": N_("A win on your own draw"),
    "may_decline_win": N_("A win may be declined"),
    "dragon_pung_bonus": N_("A pung of dragons scores a bonus point"),
    "concealed_bonus": N_("A hand won without claims scores a bonus point"),
    "ghosts": N_("Ghost seats fill a table of two or three"),
    "ghost_discards_claimable": N_("A ghost's discard may be claimed"),
    "reserve": N_("Tiles kept back at the end of the wall"),
    "rounds": N_("Rounds in a match"),
    "dealer_rotation": N_("How the dealer moves on"),
}

#: The values of the settings that are choices, in words.
_CHOICES: dict[str, str] = {
    "left_of_dealer": N_("the player left of the dealer"),
    "dealer": N_("the dealer"),
    "chosen": N_("chosen by the table"),
    "lowest_cut": N_("the lowest cut card"),
    "after_own_turn": N_("after your own first turn"),
    "after_first_round": N_("after the first round"),
    "any_time": N_("at any time"),
    "nearest_left": N_("the nearest player to the discarder's left"),
    "joker_holder": N_("the holder of the joker"),
    "every_eligible": N_("everyone who may claim, every time"),
    "able_only": N_("only the players who can make the claim"),
    "winner_scores": N_("the winner scores the cards left in the other hands"),
    "penalty": N_("penalty points for your own cards left; lowest total wins"),
    "standard": N_("standard values"),
    "alternate_ace_11": N_("alternate values, ace 11"),
    "alternate_ace_15": N_("alternate values, ace 15"),
    "nintendo": N_("Nintendo's values"),
    "reshuffle": N_("the discards are shuffled into a new stock"),
    "void": N_("the deal is void"),
    "declared": N_("declared by the player"),
    "automatic": N_("ends the round at once"),
    "every_round": N_("every round"),
    "dealer_keeps_on_win": N_("the dealer deals again after a win"),
}

#: Each game's sheet, in our own words, paragraph by paragraph.
_STORY: dict[str, tuple[str, ...]] = {
    "seven_bridge": (
        N_(
            "Seven Bridge is a rummy game for {low} to {high} players. Each player is dealt seven "
            "cards; the aim is to be the first to get rid of them all."
        ),
        N_(
            "A turn: draw the top card of the stock (or claim the last discard), put down "
            "melds if you can, lay cards off on melds already on the table, then discard one "
            "card."
        ),
        N_(
            "A meld is a set (three or four cards of one rank) or a run (three or more cards "
            "in a row, in one suit). Sevens are special: a single seven, two sevens, or a "
            "seven with its neighbour in the same suit is a meld on its own."
        ),
        N_(
            "Claims: when a card is discarded, any other player may pon it (make a set with "
            "cards from their hand), and the next player may chi it instead of drawing (make "
            "a run). A pon goes before a chi."
        ),
        N_(
            "The deal ends when a player has no cards left. The others count the cards they "
            "still hold, as the scoring below says."
        ),
    ),
    "mahjong": (
        N_(
            "Simple Mahjong is played with tiles by {low} to {high} players. The aim is to be "
            "the first to complete a hand of four sets and a pair."
        ),
        N_(
            "A set is a pung (three alike) or a chow (three in a row, in one suit); winds and "
            "dragons make only pungs."
        ),
        N_(
            "A turn: draw a tile from the wall, then discard one. When a tile is discarded, "
            "anyone may claim it for a pung, the next player for a chow, and a claim that "
            "completes a winning hand (mahjong) goes before both."
        ),
        N_(
            "A round ends when somebody wins, or when the wall is used up. A match is a "
            "series of rounds; the dealer moves on as the settings below say."
        ),
    ),
}


def setting_text(value: Any, lang: str) -> str:
    """A setting's value in words: yes or no, a number, a choice, or none."""
    _ = translator(lang)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return _("no limit")
    if isinstance(value, enum.Enum):
        word = _CHOICES.get(str(value.value))
        return _(word) if word is not None else str(value.value)
    return str(value)


def rules_body(game: TableGame, preset: str, lang: str, link: Callable[[str], str]) -> str:
    """The sheet of ``game``'s ``preset`` (a name in ``game.presets()``) as HTML
    (the inside of the page), in ``lang``; ``link(preset)`` is the address of
    another preset's sheet."""
    _ = translator(lang)
    rules = game.make_rules(preset, None)
    base = game.make_rules("standard", None)
    title = _("{game}: the {preset} rules").format(
        game=_(game.title), preset=name_text(preset, lang)
    )
    out = [f'<h2 id="sheet-title">{escape(title)}</h2>']
    counts = {"low": min(game.player_counts), "high": max(game.player_counts)}
    out += [f"<p>{escape(_(line).format(**counts))}</p>" for line in _STORY[game.name]]
    differ = [f.name for f in attrs.fields(type(rules))
              if getattr(rules, f.name) != getattr(base, f.name)]  # fmt: skip
    if differ:
        changed = _(", ").join(_(LABELS[name]).lower() if lang == "en" else _(LABELS[name])
                               for name in differ)  # fmt: skip
        out.append(
            f'<p id="changes">{escape(_("This preset differs from the standard rules in: {list}.").format(list=changed))}</p>'
        )
    elif preset == "standard":
        out.append(f'<p id="changes">{escape(_("These are the standard rules."))}</p>')
    rows = []
    for field in attrs.fields(type(rules)):
        value = getattr(rules, field.name)
        raw = value.value if isinstance(value, enum.Enum) else value
        mark = ' class="changed"' if field.name in differ else ""
        rows.append(
            f'<tr data-field="{escape(field.name)}" data-value="{escape(str(raw))}"{mark}>'
            f"<th>{escape(_(LABELS.get(field.name, field.name)))}</th>"
            f"<td>{escape(setting_text(value, lang))}</td></tr>"
        )
    out.append(f"<h3>{escape(_('The settings of these rules'))}</h3>")
    out.append(
        f'<table class="sheet"><thead><tr><th>{escape(_("Setting"))}</th>'
        f"<th>{escape(_('Value'))}</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
    if game.name == "mahjong":
        out.append(f"<h3>{escape(_('How tiles are written'))}</h3>")
        out.append(f'<p id="legend">{escape(_(TILE_LEGEND))}</p>')
    others = [
        f'<a href="{escape(link(p))}">{escape(name_text(p, lang))}</a>'
        for p in game.presets()
        if p != preset
    ]
    if others:
        out.append(f"<p>{escape(_('Other rules:'))} {' · '.join(others)}</p>")
    return "\n".join(out)
