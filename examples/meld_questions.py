"""Ask the library a few rule questions, the way a player would at the table."""

from __future__ import annotations

from sevenbridge import Rules, explain_hand_points, is_valid_meld, why_not_meld


def main() -> None:
    for group in ["7D", "6H 7H", "4H 4S", "QH KH AH"]:
        verdict = "a meld" if is_valid_meld(group) else f"not a meld ({why_not_meld(group)})"
        print(f"{group}: {verdict}")
    print(explain_hand_points("AS 7H KD", Rules.nintendo()))


if __name__ == "__main__":
    main()
